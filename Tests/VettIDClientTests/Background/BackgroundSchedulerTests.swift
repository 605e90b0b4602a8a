// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes
import Testing
import VettIDCore
import VettIDCrypto
import VettIDTestSupport

@testable import VettIDClient

/// A stream of test events with a shared iterator (unit tests only).
final class EventLog: Sendable {
    let stream: AsyncStream<String>
    let continuation: AsyncStream<String>.Continuation

    init() { (stream, continuation) = AsyncStream.makeStream(of: String.self) }

    func record(_ event: String) { continuation.yield(event) }
}

let sixHours: Duration = .seconds(6 * 60 * 60)

@Suite("Background scheduler (in-process)", .timeLimit(.minutes(1)))
struct BackgroundSchedulerTests {
    @Test("a scheduled run fires at +interval on the clock, not a second earlier")
    func firesAtInterval() async throws {
        let clock = ManualClock()
        let scheduler = InProcessBackgroundScheduler(clock: clock)
        let events = EventLog()
        try scheduler.register(identifier: "job") {
            events.record("ran")
            return true
        }
        try scheduler.schedule(identifier: "job", interval: sixHours)
        #expect(scheduler.isScheduled(identifier: "job"))
        await clock.waitForDeadlines([sixHours])
        clock.advance(by: sixHours - .seconds(1))
        #expect(clock.deadlines == [sixHours])
        clock.advance(by: .seconds(1))
        var iterator = events.stream.makeAsyncIterator()
        #expect(await iterator.next() == "ran")
        #expect(!scheduler.isScheduled(identifier: "job"))
    }

    @Test("scheduling again replaces the pending request")
    func replaces() async throws {
        let clock = ManualClock()
        let scheduler = InProcessBackgroundScheduler(clock: clock)
        try scheduler.register(identifier: "job") { true }
        try scheduler.schedule(identifier: "job", interval: .seconds(10))
        await clock.waitForDeadlines([.seconds(10)])
        try scheduler.schedule(identifier: "job", interval: .seconds(20))
        await clock.waitForDeadlines([.seconds(20)])
        #expect(clock.deadlines == [.seconds(20)])
    }

    @Test("cancel removes the pending run; nothing runs later")
    func cancelStops() async throws {
        let clock = ManualClock()
        let scheduler = InProcessBackgroundScheduler(clock: clock)
        let events = EventLog()
        try scheduler.register(identifier: "job") {
            events.record("ran")
            return true
        }
        try scheduler.schedule(identifier: "job", interval: sixHours)
        await clock.waitForDeadlines([sixHours])
        scheduler.cancel(identifier: "job")
        #expect(!scheduler.isScheduled(identifier: "job"))
        await clock.waitForDeadlines([])
        clock.advance(by: sixHours * 4)
        events.continuation.finish()
        var iterator = events.stream.makeAsyncIterator()
        #expect(await iterator.next() == nil)
    }

    @Test("scheduling an unregistered identifier throws not_registered")
    func notRegistered() {
        let scheduler = InProcessBackgroundScheduler(clock: ManualClock())
        #expect {
            try scheduler.schedule(identifier: "nobody", interval: .seconds(1))
        } throws: { ($0 as? BackgroundSchedulerError)?.code == .notRegistered }
    }

    @Test("expire cancels the running handler's task")
    func expireCancels() async throws {
        let clock = ManualClock()
        let blocker = ManualClock()
        let scheduler = InProcessBackgroundScheduler(clock: clock)
        let events = EventLog()
        try scheduler.register(identifier: "job") {
            events.record("started")
            do {
                try await blocker.sleep(for: .seconds(1_000_000))
                events.record("finished")
                return true
            } catch {
                events.record(Task.isCancelled ? "cancelled" : "other")
                return false
            }
        }
        try scheduler.schedule(identifier: "job", interval: .seconds(1))
        await clock.waitForDeadlines([.seconds(1)])
        clock.advance(by: .seconds(1))
        var iterator = events.stream.makeAsyncIterator()
        #expect(await iterator.next() == "started")
        await blocker.waitForDeadlines([.seconds(1_000_000)])
        #expect(scheduler.isRunning(identifier: "job"))
        scheduler.expire(identifier: "job")
        #expect(await iterator.next() == "cancelled")
    }

    @Test("a run longer than maximumRunDuration is expired by the clock")
    func maximumRunDuration() async throws {
        let clock = ManualClock()
        let blocker = ManualClock()
        let scheduler = InProcessBackgroundScheduler(clock: clock, maximumRunDuration: .seconds(30))
        let events = EventLog()
        try scheduler.register(identifier: "job") {
            events.record("started")
            do {
                try await blocker.sleep(for: .seconds(1_000_000))
                return true
            } catch {
                events.record(Task.isCancelled ? "cancelled" : "other")
                return false
            }
        }
        try scheduler.schedule(identifier: "job", interval: .seconds(1))
        await clock.waitForDeadlines([.seconds(1)])
        clock.advance(by: .seconds(1))
        var iterator = events.stream.makeAsyncIterator()
        #expect(await iterator.next() == "started")
        await clock.waitForDeadlines([.seconds(31)])
        clock.advance(by: .seconds(29))
        #expect(clock.deadlines == [.seconds(31)])
        clock.advance(by: .seconds(1))
        #expect(await iterator.next() == "cancelled")
    }
}

@Suite("Vault refresh task", .timeLimit(.minutes(1)))
struct VaultRefreshTaskTests {
    func result(keys: Int = 20) -> VaultSyncResult {
        VaultSyncResult(
            status: .keysReplenished, lastSyncAt: Date(timeIntervalSince1970: 1_893_456_000),
            transactionKeysRemaining: keys,
            newTransactionKeys: [], credentialVersion: 1, storedTransactionKeys: keys
        )
    }

    @Test("defaults: dev.vettid.vaultsync every six hours")
    func defaults() {
        #expect(VaultRefreshTask.defaultIdentifier == "dev.vettid.vaultsync")
        #expect(VaultRefreshTask.defaultInterval == .seconds(21_600))
    }

    @Test("the first run is at +6 h; each run syncs and reschedules itself for +6 h")
    func reschedulesAfterEachRun() async throws {
        let clock = ManualClock()
        let scheduler = InProcessBackgroundScheduler(clock: clock)
        let events = EventLog()
        let task = VaultRefreshTask(scheduler: scheduler) {
            events.record("sync")
            return self.result()
        }
        try await task.start()
        #expect(await task.isStarted)
        await clock.waitForDeadlines([sixHours])
        var outcomes = task.outcomes.makeAsyncIterator()
        var syncs = events.stream.makeAsyncIterator()
        for run in 1...3 {
            clock.advance(by: sixHours)
            #expect(await syncs.next() == "sync")
            guard case .synced(let value) = await outcomes.next() else {
                Issue.record("run \(run) did not sync")
                return
            }
            #expect(value.storedTransactionKeys == 20)
            await clock.waitForDeadlines([sixHours * (run + 1)])
            #expect(scheduler.isScheduled(identifier: "dev.vettid.vaultsync"))
        }
    }

    @Test("a failed sync is reported and still reschedules")
    func failureReschedules() async throws {
        let clock = ManualClock()
        let scheduler = InProcessBackgroundScheduler(clock: clock)
        let task = VaultRefreshTask(scheduler: scheduler) {
            throw APIError(code: .networkError, description: "offline")
        }
        try await task.start(firstRunAfter: .zero)
        var outcomes = task.outcomes.makeAsyncIterator()
        guard case .failed(let error) = await outcomes.next() else {
            Issue.record("not failed")
            return
        }
        #expect(error.code == .networkError)
        await clock.waitForDeadlines([sixHours])
    }

    @Test("expiry cancels the running sync (cooperatively) and the next run is still scheduled")
    func expiryCancelsSync() async throws {
        let clock = ManualClock()
        let blocker = ManualClock()
        let scheduler = InProcessBackgroundScheduler(clock: clock, maximumRunDuration: .seconds(30))
        let events = EventLog()
        let task = VaultRefreshTask(scheduler: scheduler) {
            events.record("sync started")
            do {
                try await blocker.sleep(for: .seconds(1_000_000))
            } catch {
                events.record(Task.isCancelled ? "sync cancelled" : "sync failed")
                throw error
            }
            return self.result()
        }
        try await task.start()
        await clock.waitForDeadlines([sixHours])
        clock.advance(by: sixHours)
        var syncs = events.stream.makeAsyncIterator()
        #expect(await syncs.next() == "sync started")
        await blocker.waitForDeadlines([.seconds(1_000_000)])
        await clock.waitForDeadlines([sixHours + .seconds(30)])
        clock.advance(by: .seconds(30))
        #expect(await syncs.next() == "sync cancelled")
        var outcomes = task.outcomes.makeAsyncIterator()
        guard case .expired = await outcomes.next() else {
            Issue.record("not expired")
            return
        }
        await clock.waitForDeadlines([sixHours * 2 + .seconds(30)])
    }

    @Test("stop cancels the pending run, and a run in progress does not reschedule")
    func stopStops() async throws {
        let clock = ManualClock()
        let blocker = ManualClock()
        let scheduler = InProcessBackgroundScheduler(clock: clock)
        let events = EventLog()
        let task = VaultRefreshTask(scheduler: scheduler) {
            events.record("sync")
            try await blocker.sleep(for: .seconds(10))
            return self.result()
        }
        try await task.start()
        await clock.waitForDeadlines([sixHours])
        await task.stop()
        #expect(!scheduler.isScheduled(identifier: VaultRefreshTask.defaultIdentifier))
        await clock.waitForDeadlines([])
        clock.advance(by: sixHours * 2)

        // Started again; stopped while the sync runs.
        try await task.start(firstRunAfter: .seconds(1))
        await clock.waitForDeadlines([sixHours * 2 + .seconds(1)])
        clock.advance(by: .seconds(1))
        var syncs = events.stream.makeAsyncIterator()
        #expect(await syncs.next() == "sync")
        await blocker.waitForDeadlines([.seconds(10)])
        await task.stop()
        blocker.advance(by: .seconds(10))
        var outcomes = task.outcomes.makeAsyncIterator()
        guard case .synced = await outcomes.next() else {
            Issue.record("not synced")
            return
        }
        #expect(!scheduler.isScheduled(identifier: VaultRefreshTask.defaultIdentifier))
        #expect(clock.deadlines.isEmpty)
        #expect(await !task.isStarted)
    }

    @Test("over a VaultService, a run syncs and stores the new keys")
    func overService() async throws {
        let fixture = try ScriptedVaultFixture()
        try await fixture.signIn(keys: [freshTransactionKey("tk-1")])
        let key = freshTransactionKey("tk-2")
        await fixture.answers.add(
            "/vault/sync", .ok,
            #"{"status":"keys_replenished","last_sync_at":"2030-01-03T00:00:00Z","transaction_keys_remaining":2,"new_transaction_keys":[{"key_id":"tk-2","public_key":"\#(key.publicKey)","algorithm":"X25519"}],"credential_version":1}"#
        )
        let clock = ManualClock()
        let task = VaultRefreshTask(service: fixture.service, scheduler: InProcessBackgroundScheduler(clock: clock))
        try await task.start(firstRunAfter: .zero)
        var outcomes = task.outcomes.makeAsyncIterator()
        guard case .synced(let result) = await outcomes.next() else {
            Issue.record("not synced")
            return
        }
        #expect(result.storedTransactionKeys == 2)
        #expect(try await fixture.service.storedCredential()?.package.transactionKeys.map(\.keyID) == ["tk-1", "tk-2"])
    }
}
