// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing

@testable import VettIDClient

/// The decisions of the scheduler behind BGTaskScheduler, over plain dates: one pending refresh request (iOS allows
/// one), every due job run per launch, jobs attached after launch, expiry.
@Suite("Background refresh plan")
struct BackgroundRefreshPlanTests {
    static let vault = "dev.vettid.vaultsync"
    static let nats = "dev.vettid.natsrefresh"
    static let start = Date(timeIntervalSince1970: 1_800_000_000)
    static func at(hours: Double) -> Date { start.addingTimeInterval(hours * 3600) }
    static func request(_ identifier: String, hours: Double) -> BackgroundRefreshPlan.Action {
        .submit(.init(identifier: identifier, earliestBeginDate: at(hours: hours)))
    }

    static func attachedPlan() -> BackgroundRefreshPlan {
        var plan = BackgroundRefreshPlan(coalescingWindow: 15 * 60)
        let result1 = plan.attach(vault)
        #expect(result1.isEmpty)
        let result2 = plan.attach(nats)
        #expect(result2.isEmpty)
        return plan
    }

    @Test("one request at a time: the job due first; when that changes, the old request is cancelled first")
    func oneRequestForTheJobDueFirst() {
        var plan = Self.attachedPlan()
        let result3 = plan.schedule(Self.vault, at: Self.at(hours: 6))
        #expect(result3 == [Self.request(Self.vault, hours: 6)])
        #expect(
            plan.schedule(Self.nats, at: Self.at(hours: 2))
                == [.cancel(identifier: Self.vault), Self.request(Self.nats, hours: 2)])
        #expect(
            plan.schedule(Self.nats, at: Self.at(hours: 8))
                == [.cancel(identifier: Self.nats), Self.request(Self.vault, hours: 6)])
        let result4 = plan.schedule(Self.nats, at: Self.at(hours: 7))
        #expect(result4.isEmpty, "the job due first is unchanged")
        #expect(plan.pending == .init(identifier: Self.vault, earliestBeginDate: Self.at(hours: 6)))
    }

    @Test("rescheduling the pending job replaces its request (same identifier: no cancel); ties go by identifier")
    func samePendingJob() {
        var plan = Self.attachedPlan()
        _ = plan.schedule(Self.vault, at: Self.at(hours: 6))
        let result5 = plan.schedule(Self.vault, at: Self.at(hours: 5))
        #expect(result5 == [Self.request(Self.vault, hours: 5)])
        #expect(
            plan.schedule(Self.nats, at: Self.at(hours: 5))
                == [.cancel(identifier: Self.vault), Self.request(Self.nats, hours: 5)])
    }

    @Test(
        "a launch runs every job due within the window and the launched one; the next request goes out, then completion"
    )
    func launchRunsEveryDueJob() throws {
        var plan = Self.attachedPlan()
        _ = plan.schedule(Self.vault, at: Self.at(hours: 6))
        _ = plan.schedule(Self.nats, at: Self.at(hours: 6.1))
        let started = plan.launched(Self.vault, at: Self.at(hours: 6))
        #expect(started == [.start([Self.nats, Self.vault])])
        #expect(plan.pending == nil)
        // The jobs reschedule themselves while the launch runs: nothing is submitted yet.
        let result6 = plan.schedule(Self.vault, at: Self.at(hours: 12))
        #expect(result6.isEmpty)
        let result7 = plan.finished(Self.vault, success: true)
        #expect(result7.isEmpty)
        let result8 = plan.schedule(Self.nats, at: Self.at(hours: 12.1))
        #expect(result8.isEmpty)
        let result9 = plan.finished(Self.nats, success: true)
        #expect(result9 == [Self.request(Self.vault, hours: 12), .complete(success: true)])
        #expect(plan.launch == nil)
    }

    @Test("a job due after the window keeps its date; one failed job makes the launch unsuccessful")
    func laterJobsWait() throws {
        var plan = Self.attachedPlan()
        _ = plan.schedule(Self.vault, at: Self.at(hours: 6))
        _ = plan.schedule(Self.nats, at: Self.at(hours: 9))
        let started = plan.launched(Self.vault, at: Self.at(hours: 6.5))
        #expect(started == [.start([Self.vault])])
        #expect(plan.due[Self.nats] == Self.at(hours: 9))
        let result10 = plan.finished(Self.vault, success: false)
        #expect(result10 == [Self.request(Self.nats, hours: 9), .complete(success: false)])
    }

    @Test("a launch in a fresh process: the launched job waits for its handler, attached after sign-in")
    func launchedJobWaitsForAttach() throws {
        var plan = BackgroundRefreshPlan(coalescingWindow: 0)
        let started = plan.launched(Self.vault, at: Self.start)
        #expect(started == [])
        #expect(plan.launch?.waiting == [Self.vault])
        let result11 = plan.attach(Self.vault)
        #expect(result11 == [.start([Self.vault])])
        let result12 = plan.attach(Self.nats)
        #expect(result12.isEmpty)
        let result13 = plan.schedule(Self.vault, at: Self.at(hours: 6))
        #expect(result13.isEmpty)
        let result14 = plan.finished(Self.vault, success: true)
        #expect(result14 == [Self.request(Self.vault, hours: 6), .complete(success: true)])
    }

    @Test("a job never attached (the member is signed out) is given up when the wait ends: unsuccessful")
    func waitEnds() throws {
        var plan = BackgroundRefreshPlan(coalescingWindow: 0)
        _ = plan.launched(Self.nats, at: Self.start)
        let result15 = plan.waitEnded()
        #expect(result15 == [.complete(success: false)])
        let result16 = plan.waitEnded()
        #expect(result16.isEmpty)
    }

    @Test("detaching a waited-for job (sign-out) ends the wait: nothing failed, the job is no longer wanted")
    func detachEndsWait() throws {
        var plan = BackgroundRefreshPlan(coalescingWindow: 0)
        _ = plan.launched(Self.nats, at: Self.start)
        let result17 = plan.detach(Self.nats)
        #expect(result17 == [.complete(success: true)])
    }

    @Test("expiry: the launch completes at once, unsuccessful; waiting jobs are given up, a late finish is ignored")
    func expiry() throws {
        var plan = BackgroundRefreshPlan(coalescingWindow: 15 * 60)
        _ = plan.attach(Self.vault)
        _ = plan.schedule(Self.vault, at: Self.at(hours: 6))
        _ = plan.schedule(Self.nats, at: Self.at(hours: 6))
        let started = plan.launched(Self.vault, at: Self.at(hours: 6))
        #expect(started == [.start([Self.vault])])
        #expect(plan.launch?.waiting == [Self.nats])
        let result18 = plan.expired()
        #expect(result18 == [.complete(success: false)], "completed before the running job returns")
        #expect(plan.launch == nil)
        let result19 = plan.finished(Self.vault, success: true)
        #expect(result19.isEmpty, "the job of the expired launch finishing changes nothing")
    }

    @Test("a second launch while one runs is refused (the scheduler completes it at once)")
    func secondLaunch() throws {
        var plan = Self.attachedPlan()
        _ = plan.launched(Self.vault, at: Self.start)
        let result20 = plan.launched(Self.nats, at: Self.start)
        #expect(result20 == nil)
    }

    @Test("cancel and detach: no job due, no request")
    func cancelAndDetach() {
        var plan = Self.attachedPlan()
        _ = plan.schedule(Self.vault, at: Self.at(hours: 6))
        _ = plan.schedule(Self.nats, at: Self.at(hours: 7))
        let result21 = plan.cancel(Self.vault)
        #expect(result21 == [.cancel(identifier: Self.vault), Self.request(Self.nats, hours: 7)])
        let result22 = plan.detach(Self.nats)
        #expect(result22 == [.cancel(identifier: Self.nats)])
        #expect(plan.due.isEmpty && plan.pending == nil && !plan.attached.contains(Self.nats))
        let result23 = plan.cancel(Self.vault)
        #expect(result23.isEmpty)
    }

    @Test("a refused submit leaves nothing pending: the next change submits again")
    func submitFailure() {
        var plan = Self.attachedPlan()
        _ = plan.schedule(Self.vault, at: Self.at(hours: 6))
        plan.submitFailed(.init(identifier: Self.vault, earliestBeginDate: Self.at(hours: 6)))
        #expect(plan.pending == nil)
        let result24 = plan.schedule(Self.vault, at: Self.at(hours: 6))
        #expect(result24 == [Self.request(Self.vault, hours: 6)])
    }
}

/// The process-wide registry that turns BGTaskScheduler's exceptions into errors.
@Suite("Background task registry")
struct BackgroundTaskRegistryTests {
    @Test("an identifier is registered once; the system is asked only the first time")
    func registersOnce() {
        var registry = BackgroundTaskRegistry()
        var calls = 0
        let result25 = registry.register("a") {
            calls += 1; return true
        }
        #expect(result25 == .registered)
        let result26 = registry.register("a") {
            calls += 1; return true
        }
        #expect(result26 == .alreadyRegistered)
        #expect(calls == 1)
    }

    @Test("a refused identifier stays unregistered and can be tried again")
    func refused() {
        var registry = BackgroundTaskRegistry()
        let result27 = registry.register("a") { false }
        #expect(result27 == .refused)
        let result28 = registry.register("a") { true }
        #expect(result28 == .registered)
    }

    @Test("registration closes at the first submit and at the end of launch; submits need a registration")
    func closes() {
        var registry = BackgroundTaskRegistry()
        _ = registry.register("a") { true }
        let result29 = registry.prepareSubmit("b")
        #expect(result29 == false)
        #expect(registry.isClosed)
        let result30 = registry.register("b") {
            Issue.record("the system must not be asked after launch"); return true
        }
        #expect(result30 == .closed)
        let result31 = registry.prepareSubmit("a")
        #expect(result31)
        var launched = BackgroundTaskRegistry()
        launched.close()
        let result32 = launched.register("a") { true }
        #expect(result32 == .closed)
    }
}
