// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing
import VettIDClientTestSupport
import VettIDCore
import VettIDCrypto
import VettIDTestSupport

@testable import VettIDClient

/// BGTaskScheduler as the documentation describes it, for one process: launch handlers registered once per identifier
/// and only before launch ends (``BackgroundTaskRegistry``, as the Apple system uses it), at most **one** pending
/// refresh request (a second identifier's submit fails like `tooManyPendingTaskRequests`), and launches the test
/// starts by hand.
final class FakeRefreshSystem: BackgroundRefreshSystem {
    private struct State {
        var registry = BackgroundTaskRegistry()
        var handlers: [String: @Sendable (any BackgroundRefreshLaunch) -> Void] = [:]
        var pending: [String: Date] = [:]
        var submits = 0
    }

    private let state = LockedValue(State())
    let permitted: Set<String>

    init(permitted: Set<String> = Set(BackgroundRefreshScheduler.launchIdentifiers)) {
        self.permitted = permitted
    }

    /// The pending requests (never more than one).
    var pending: [String: Date] { state.withLock { $0.pending } }
    var submits: Int { state.withLock { $0.submits } }

    func register(identifier: String, launchHandler: @escaping @Sendable (any BackgroundRefreshLaunch) -> Void)
        throws(BackgroundSchedulerError)
    {
        let outcome = state.withLock { state in
            state.registry.register(identifier) {
                guard permitted.contains(identifier) else { return false }
                state.handlers[identifier] = launchHandler
                return true
            }
        }
        switch outcome {
        case .registered: return
        case .alreadyRegistered: throw BackgroundSchedulerError(code: .alreadyRegistered, message: identifier)
        case .closed: throw BackgroundSchedulerError(code: .registrationClosed, message: identifier)
        case .refused: throw BackgroundSchedulerError(code: .registrationFailed, message: identifier)
        }
    }

    func submit(identifier: String, earliestBeginDate: Date) throws(BackgroundSchedulerError) {
        try state.withLock { (state: inout State) throws(BackgroundSchedulerError) -> Void in
            guard state.registry.prepareSubmit(identifier) else {
                throw BackgroundSchedulerError(code: .notRegistered, message: identifier)
            }
            guard state.pending.keys.allSatisfy({ $0 == identifier }) else {
                throw BackgroundSchedulerError(code: .submitFailed, message: "tooManyPendingTaskRequests")
            }
            state.pending[identifier] = earliestBeginDate
            state.submits += 1
        }
    }

    func cancel(identifier: String) {
        state.withLock { _ = $0.pending.removeValue(forKey: identifier) }
    }

    /// The system launches the pending request of `identifier` (or any registered identifier, as a debugger's
    /// `_simulateLaunchForTaskWithIdentifier:` does).
    @discardableResult
    func launch(_ identifier: String) -> FakeLaunch {
        let launch = FakeLaunch(identifier: identifier)
        let handler = state.withLock { state in
            state.pending[identifier] = nil
            return state.handlers[identifier]
        }
        handler?(launch)
        return launch
    }
}

/// A `BGTask` stand-in: records its completions and lets the test expire it.
final class FakeLaunch: BackgroundRefreshLaunch {
    let identifier: String
    private let state = LockedValue((expiration: (@Sendable () -> Void)?.none, completions: [Bool]()))

    init(identifier: String) { self.identifier = identifier }

    var completions: [Bool] { state.withLock { $0.completions } }

    func setExpirationHandler(_ handler: @escaping @Sendable () -> Void) {
        state.withLock { $0.expiration = handler }
    }

    func setCompleted(success: Bool) {
        state.withLock { $0.completions.append(success) }
    }

    func expire() {
        state.withLock { $0.expiration }?()
    }
}

@Suite("Background refresh scheduler", .timeLimit(.minutes(1)))
struct BackgroundRefreshSchedulerTests {
    static let vault = VaultRefreshTask.defaultIdentifier
    static let nats = NatsTokenRefreshTask.defaultIdentifier

    static func make(
        _ system: FakeRefreshSystem, wall: ManualClock = ManualClock(), clock: ManualClock = ManualClock()
    ) -> BackgroundRefreshScheduler {
        BackgroundRefreshScheduler(system: system, clock: clock, wallClock: wall.wall)
    }

    @Test(
        "the seed identifiers are registered at launch; again on one scheduler is harmless; a second scheduler is refused"
    )
    func registration() throws {
        let system = FakeRefreshSystem()
        let scheduler = Self.make(system)
        #expect(BackgroundRefreshScheduler.launchIdentifiers == ["dev.vettid.vaultsync", "dev.vettid.natsrefresh"])
        try scheduler.registerLaunchHandlers()
        try scheduler.registerLaunchHandlers()
        let second = Self.make(system)
        #expect { try second.registerLaunchHandlers() } throws: {
            ($0 as? BackgroundSchedulerError)?.code == .alreadyRegistered
        }
        #expect { try Self.make(system).registerLaunchHandlers(for: ["not.permitted"]) } throws: {
            ($0 as? BackgroundSchedulerError)?.code == .registrationFailed
        }
    }

    @Test("jobs attach only to identifiers registered at launch; registering after the first submit is refused")
    func lateRegistration() throws {
        let system = FakeRefreshSystem()
        let scheduler = Self.make(system)
        #expect { try scheduler.register(identifier: Self.vault) { true } } throws: {
            ($0 as? BackgroundSchedulerError)?.code == .notRegistered
        }
        #expect { try scheduler.schedule(identifier: Self.vault, interval: sixHours) } throws: {
            ($0 as? BackgroundSchedulerError)?.code == .notRegistered
        }
        try scheduler.registerLaunchHandlers(for: [Self.vault])
        try scheduler.register(identifier: Self.vault) { true }
        try scheduler.schedule(identifier: Self.vault, interval: sixHours)
        #expect { try scheduler.registerLaunchHandlers(for: [Self.nats]) } throws: {
            ($0 as? BackgroundSchedulerError)?.code == .registrationClosed
        }
    }

    @Test("both jobs scheduled: one pending request, the job due first's")
    func onePendingRequest() throws {
        let system = FakeRefreshSystem()
        let wall = ManualClock()
        let scheduler = Self.make(system, wall: wall)
        try scheduler.registerLaunchHandlers()
        try scheduler.register(identifier: Self.vault) { true }
        try scheduler.register(identifier: Self.nats) { true }
        try scheduler.schedule(identifier: Self.vault, interval: sixHours)
        try scheduler.schedule(identifier: Self.nats, interval: .seconds(2 * 3600))
        #expect(system.pending == [Self.nats: wall.wall.now().addingTimeInterval(2 * 3600)])
        #expect(scheduler.pendingRequest?.identifier == Self.nats)
        scheduler.cancel(identifier: Self.nats)
        #expect(system.pending == [Self.vault: wall.wall.now().addingTimeInterval(6 * 3600)])
    }

    @Test("a launch runs every due job, submits the next request, then completes")
    func launchRunsDueJobs() async throws {
        let system = FakeRefreshSystem()
        let wall = ManualClock()
        let scheduler = Self.make(system, wall: wall)
        try scheduler.registerLaunchHandlers()
        let runs = LockedValue([String]())
        for identifier in [Self.vault, Self.nats] {
            try scheduler.register(identifier: identifier) {
                runs.withLock { $0.append(identifier) }
                try? scheduler.schedule(identifier: identifier, interval: sixHours)
                return true
            }
            try scheduler.schedule(identifier: identifier, interval: sixHours)
        }
        wall.advance(6 * 3600)
        let launch = system.launch(try #require(scheduler.pendingRequest?.identifier))
        #expect(await eventually { launch.completions == [true] })
        #expect(runs.withLock { $0.sorted() } == [Self.nats, Self.vault])
        #expect(system.pending.count == 1)
        #expect(scheduler.pendingRequest?.earliestBeginDate == wall.wall.now().addingTimeInterval(6 * 3600))
        #expect(!scheduler.isLaunchInProgress)
    }

    @Test("a background launch of a fresh process waits for the job attached after sign-in")
    func launchBeforeAttach() async throws {
        let system = FakeRefreshSystem()
        let clock = ManualClock()
        let scheduler = Self.make(system, clock: clock)
        try scheduler.registerLaunchHandlers()
        let launch = system.launch(Self.vault)
        #expect(scheduler.isLaunchInProgress)
        await clock.waitForDeadlines([BackgroundRefreshScheduler.defaultAttachWait])
        try scheduler.register(identifier: Self.vault) { true }
        #expect(await eventually { launch.completions == [true] })
        #expect(clock.deadlines.isEmpty, "the wait timer is cancelled")
    }

    @Test("a job never attached is waited for attachWait only; the launch is then unsuccessful")
    func attachWaitEnds() async throws {
        let system = FakeRefreshSystem()
        let clock = ManualClock()
        let scheduler = Self.make(system, clock: clock)
        try scheduler.registerLaunchHandlers()
        let launch = system.launch(Self.nats)
        await clock.waitForDeadlines([BackgroundRefreshScheduler.defaultAttachWait])
        clock.advance(by: BackgroundRefreshScheduler.defaultAttachWait)
        #expect(await eventually { launch.completions == [false] })
        #expect(!scheduler.isLaunchInProgress)
    }

    @Test("expiry cancels the running jobs; the launch completes unsuccessful; a launch meanwhile is completed at once")
    func expiry() async throws {
        let system = FakeRefreshSystem()
        let scheduler = Self.make(system)
        try scheduler.registerLaunchHandlers()
        let started = LockedValue(false)
        try scheduler.register(identifier: Self.vault) {
            started.withLock { $0 = true }
            while !Task.isCancelled { try? await Task.sleep(for: .milliseconds(5)) }
            return false
        }
        let launch = system.launch(Self.vault)
        #expect(await eventually { started.withLock { $0 } })
        let extra = system.launch(Self.nats)
        #expect(extra.completions == [true])
        launch.expire()
        #expect(await eventually { launch.completions == [false] })
    }

    @Test("expiry completes the launch before the handler returns; the job finishing later changes nothing")
    func expiryCompletesAtOnce() async throws {
        let system = FakeRefreshSystem()
        let scheduler = Self.make(system)
        try scheduler.registerLaunchHandlers()
        // Each run waits, ignoring cancellation, until the test lets it finish (a job slow to notice expiry).
        let runs = LockedValue(0)
        let released = LockedValue(0)
        try scheduler.register(identifier: Self.vault) {
            let run = runs.withLock { runs in
                runs += 1
                return runs
            }
            while released.withLock({ $0 }) < run { try? await Task.sleep(for: .milliseconds(2)) }
            return true
        }
        let first = system.launch(Self.vault)
        #expect(await eventually { runs.withLock { $0 } == 1 })
        first.expire()
        #expect(first.completions == [false], "completed inside the expiration handler")
        #expect(!scheduler.isLaunchInProgress)
        // The next launch runs the job again; the first run finishing late neither completes it nor the first again.
        let second = system.launch(Self.vault)
        #expect(await eventually { runs.withLock { $0 } == 2 })
        released.withLock { $0 = 1 }
        try await Task.sleep(for: .milliseconds(50))
        #expect(first.completions == [false])
        #expect(second.completions.isEmpty)
        #expect(scheduler.isLaunchInProgress)
        released.withLock { $0 = 2 }
        #expect(await eventually { second.completions == [true] })
        #expect(first.completions == [false])
    }

    @Test("VaultRefreshTask and NatsTokenRefreshTask share the scheduler: one request, both run in one launch")
    func seedTasksShareOneRequest() async throws {
        let system = FakeRefreshSystem()
        let wall = ManualClock()
        let scheduler = Self.make(system, wall: wall)
        try scheduler.registerLaunchHandlers()
        let syncs = LockedValue(0)
        let vault = VaultRefreshTask(scheduler: scheduler) {
            syncs.withLock { $0 += 1 }
            return VaultSyncResult(
                status: .keysReplenished, lastSyncAt: wall.wall.now(), transactionKeysRemaining: 20,
                newTransactionKeys: [],
                credentialVersion: 1, storedTransactionKeys: 20)
        }
        let store = NatsCredentialStore(store: InMemorySecureStore())
        let provider = ScriptedNatsProvider([.success(sampleNatsCredentials(tokenID: "t", issued: wall.wall.now()))])
        let nats = NatsTokenRefreshTask(provider: provider, store: store, scheduler: scheduler, clock: wall.wall)
        try await vault.start()
        try await nats.start()
        #expect(system.pending.count == 1)
        wall.advance(6 * 3600)
        let launch = system.launch(try #require(scheduler.pendingRequest?.identifier))
        #expect(await eventually { launch.completions == [true] })
        #expect(syncs.withLock { $0 } == 1)
        #expect(await store.load()?.tokenID == "t")
        #expect(system.pending.count == 1)
        await vault.stop()
        scheduler.detach(identifier: Self.vault)
        #expect(scheduler.pendingRequest?.identifier == Self.nats)
    }
}
