// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Testing

@testable import VettIDServer

/// The vault worker's start/stop lifecycle without NATS: clients, connections and waiters are plain values.
@Suite("Vault worker lifecycle")
struct VaultWorkerLifecycleTests {
    struct Failure: Error, Equatable { let name: String }
    typealias Lifecycle = VaultWorkerLifecycle<String, String, Int, Int>

    static let stopped = Failure(name: "stopped")
    static let alreadyStarted = Failure(name: "already_started")

    func make() -> Lifecycle { Lifecycle(stoppedError: Self.stopped, alreadyStartedError: Self.alreadyStarted) }

    @Test("start, ready waiters resumed once, stop shuts the running connection down, later waiters fail with stopped")
    func startServeStop() throws {
        var lifecycle = make()
        try lifecycle.startRequested()
        guard case .waiting = lifecycle.waitForReadiness(id: 1, waiter: 10, isCancelled: false) else {
            Issue.record("a waiter before the start completes waits")
            return
        }
        let created = lifecycle.clientCreated("client")
        #expect(created)
        guard case .ready(let waiters) = lifecycle.started("conn") else {
            Issue.record("a start without a stop is ready")
            return
        }
        #expect(waiters == [10])
        #expect(lifecycle.running == "conn")
        guard case .ready = lifecycle.waitForReadiness(id: 2, waiter: 11, isCancelled: false) else {
            Issue.record("after the start, waiting returns at once")
            return
        }
        guard case .shutDown(let running) = lifecycle.stopRequested() else {
            Issue.record("stopping a running worker shuts its connection down")
            return
        }
        #expect(running == "conn")
        guard case .wait = lifecycle.stopRequested() else {
            Issue.record("a second stop waits for the first")
            return
        }
        let waitsForStop = lifecycle.waitForStop(20)
        #expect(waitsForStop)
        let released = lifecycle.stopped()
        #expect(released.stopWaiters == [20])
        #expect(released.readyWaiters.isEmpty)
        #expect(lifecycle.running == nil)
        guard case .failed(let error) = lifecycle.waitForReadiness(id: 3, waiter: 12, isCancelled: false) else {
            Issue.record("after a stop, waiting for readiness fails")
            return
        }
        #expect(error as? Failure == Self.stopped)
        let waitsAfterStop = lifecycle.waitForStop(21)
        #expect(!waitsAfterStop, "a stopped worker has nothing to wait for")
    }

    @Test("a second start is refused, also after a stop")
    func startsOnce() throws {
        var lifecycle = make()
        try lifecycle.startRequested()
        #expect(throws: Self.alreadyStarted) { try lifecycle.startRequested() }
        var stoppedFirst = make()
        _ = stoppedFirst.stopRequested()
        #expect(throws: Self.alreadyStarted) { try stoppedFirst.startRequested() }
    }

    @Test("a stop while connecting abandons the client; the failed connect reports stopped and wakes everyone")
    func stopWhileConnecting() throws {
        var lifecycle = make()
        try lifecycle.startRequested()
        _ = lifecycle.waitForReadiness(id: 1, waiter: 10, isCancelled: false)
        let created = lifecycle.clientCreated("client")
        #expect(created)
        guard case .abandon(let client) = lifecycle.stopRequested() else {
            Issue.record("a stop while starting abandons the connect")
            return
        }
        #expect(client == "client")
        #expect(lifecycle.stopRequestedWhileStarting)
        let waitsForStop = lifecycle.waitForStop(20)
        #expect(waitsForStop)
        let failed = lifecycle.startFailed(Failure(name: "connection_closed"))
        #expect(failed.reported as? Failure == Self.stopped, "the closed client's error is reported as the stop")
        #expect(failed.readyWaiters == [10])
        #expect(failed.stopWaiters == [20])
        #expect(lifecycle.running == nil)
    }

    @Test("a stop before the client exists: the start gives up when it has made it")
    func stopBeforeTheClientExists() throws {
        var lifecycle = make()
        try lifecycle.startRequested()
        guard case .abandon(nil) = lifecycle.stopRequested() else {
            Issue.record("nothing to close yet")
            return
        }
        let created = lifecycle.clientCreated("client")
        #expect(!created)
    }

    @Test("a connect that succeeds after a stop was requested is shut down, not served")
    func connectSucceedsAfterStop() throws {
        var lifecycle = make()
        try lifecycle.startRequested()
        let created = lifecycle.clientCreated("client")
        #expect(created)
        _ = lifecycle.stopRequested()
        guard case .stopRequested = lifecycle.started("conn") else {
            Issue.record("the new connection must be shut down")
            return
        }
        #expect(lifecycle.running == nil)
        _ = lifecycle.stopped()
        guard case .failed = lifecycle.waitForReadiness(id: 1, waiter: 10, isCancelled: false) else {
            Issue.record("the worker never became ready")
            return
        }
    }

    @Test("a failed connect without a stop reports its own error and fails the waiters with it")
    func failedConnect() throws {
        var lifecycle = make()
        try lifecycle.startRequested()
        _ = lifecycle.waitForReadiness(id: 1, waiter: 10, isCancelled: false)
        let failed = lifecycle.startFailed(Failure(name: "auth"))
        #expect(failed.reported as? Failure == Failure(name: "auth"))
        #expect(failed.readyWaiters == [10])
        guard case .failed(let error) = lifecycle.waitForReadiness(id: 2, waiter: 11, isCancelled: false) else {
            Issue.record("later waiters get the same failure")
            return
        }
        #expect(error as? Failure == Failure(name: "auth"))
        guard case .stoppedAlready(let readyWaiters, _) = lifecycle.stopRequested() else {
            Issue.record("stopping a worker whose start failed has nothing to do")
            return
        }
        #expect(readyWaiters.isEmpty)
    }

    @Test("a stop before any start fails pending waiters with stopped; a cancelled waiter is removed or refused")
    func stopBeforeStartAndCancellation() {
        var lifecycle = make()
        _ = lifecycle.waitForReadiness(id: 1, waiter: 10, isCancelled: false)
        _ = lifecycle.waitForReadiness(id: 2, waiter: 11, isCancelled: false)
        let cancelled = lifecycle.cancelReadinessWait(id: 2)
        #expect(cancelled == 11)
        let cancelledAgain = lifecycle.cancelReadinessWait(id: 2)
        #expect(cancelledAgain == nil)
        guard case .failed(let error) = lifecycle.waitForReadiness(id: 3, waiter: 12, isCancelled: true) else {
            Issue.record("a cancelled task does not wait")
            return
        }
        #expect(error is CancellationError)
        guard case .stoppedAlready(let readyWaiters, let stopWaiters) = lifecycle.stopRequested() else {
            Issue.record("an idle worker stops at once")
            return
        }
        #expect(readyWaiters == [10])
        #expect(stopWaiters.isEmpty)
    }
}
