// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing
import VettIDClientTestSupport
import VettIDCore
import VettIDTestSupport

@testable import VettIDClient

/// Collects the credentials handed to the manager (unit tests only).
actor HandedOver {
    private(set) var tokenIDs: [String] = []
    func add(_ credentials: NatsCredentials) { tokenIDs.append(credentials.tokenID) }
}

@Suite("NATS token refresh task", .timeLimit(.minutes(1)))
struct NatsTokenRefreshTaskTests {
    @Test("identifier dev.vettid.natsrefresh, every six hours")
    func defaults() {
        #expect(NatsTokenRefreshTask.defaultIdentifier == "dev.vettid.natsrefresh")
        #expect(NatsTokenRefreshTask.defaultInterval == .seconds(6 * 3600))
    }

    @Test("fresh stored credentials are left alone; near expiry they are replaced, stored and handed over")
    func refreshesWhenNeeded() async throws {
        let now = Date()
        let store = NatsCredentialStore(store: InMemorySecureStore())
        try await store.save(sampleNatsCredentials(tokenID: "old", issued: now, lifetime: 5 * 3600))
        let next = sampleNatsCredentials(tokenID: "new", issued: now, lifetime: 24 * 3600)
        let provider = ScriptedNatsProvider([.success(next)])
        let handed = HandedOver()
        let clock = ManualClock()
        let task = NatsTokenRefreshTask(
            provider: provider, store: store, scheduler: InProcessBackgroundScheduler(clock: clock),
            clock: ManualClock(start: now).wall
        ) { await handed.add($0) }
        guard case .notNeeded = await task.refreshIfNeeded() else {
            Issue.record("refreshed credentials with five hours left")
            return
        }
        #expect(await provider.calls == 0)

        let later = NatsTokenRefreshTask(
            provider: provider, store: store, scheduler: InProcessBackgroundScheduler(clock: clock),
            clock: ManualClock(start: now.addingTimeInterval(4.5 * 3600)).wall
        ) { await handed.add($0) }
        try await later.start(firstRunAfter: .zero)
        var outcomes = later.outcomes.makeAsyncIterator()
        guard case .refreshed(let credentials) = await outcomes.next() else {
            Issue.record("expected a refresh")
            return
        }
        #expect(credentials.tokenID == "new")
        #expect(await store.load()?.tokenID == "new")
        #expect(await handed.tokenIDs == ["new"])
        // The next run is six hours later.
        await clock.waitForDeadlines([NatsTokenRefreshTask.defaultInterval])
        await later.stop()
    }

    @Test("a provider failure is reported and the next run still scheduled")
    func failure() async throws {
        let store = NatsCredentialStore(store: InMemorySecureStore())
        let provider = ScriptedNatsProvider([.failure(APIError(code: .natsNotConfigured, description: "none"))])
        let clock = ManualClock()
        let task = NatsTokenRefreshTask(
            provider: provider, store: store, scheduler: InProcessBackgroundScheduler(clock: clock))
        try await task.start(firstRunAfter: .zero)
        var outcomes = task.outcomes.makeAsyncIterator()
        guard case .failed(let message) = await outcomes.next() else {
            Issue.record("expected a failure")
            return
        }
        #expect(message.contains("nats_not_configured"))
        await clock.waitForDeadlines([NatsTokenRefreshTask.defaultInterval])
        await task.stop()
    }
}
