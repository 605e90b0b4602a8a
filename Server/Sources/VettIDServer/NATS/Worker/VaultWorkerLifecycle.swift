// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import VettIDCore

// The vault worker's start/stop lifecycle as a pure state machine: no locks, no tasks, no NATS.

/// Where a ``VaultWorker`` is between `start()`, `stop()` and the waiters of `waitUntilReady()`.
///
/// Every decision of the worker's lifecycle is made here; ``VaultWorker`` holds it in a lock, carries out the
/// returned action (connect, shut down, close a client) and resumes the waiters it is handed, outside the lock.
/// Generic over the client, the running connection and the two kinds of waiters, so tests drive it with plain
/// values.
///
/// ```
/// idle ──start──▶ starting ──started──▶ running ──stop──▶ stopping ──stopped──▶ stopped
///   │                 │ stop: abandon the connect; its failure ends in stopped
///   └──stop──────────────────────────────────────────────────────────────────▶ stopped
/// ```
struct VaultWorkerLifecycle<Client: Sendable, Running: Sendable, ReadyWaiter: Sendable, StopWaiter: Sendable>: Sendable
{
    enum Phase {
        case idle
        case starting(stopRequested: Bool, client: Client?)
        case running(Running)
        case stopping
        case stopped
    }

    enum Readiness {
        case pending
        case ready
        case failed(any Error)
    }

    /// What ``stop()`` asks the worker to do.
    enum StopAction {
        /// Nothing was running: the worker is stopped; fail these readiness waiters with `stopped`.
        case stoppedAlready(readyWaiters: [ReadyWaiter], stopWaiters: [StopWaiter])
        /// Drain and close the running connection, then call ``stopped()``.
        case shutDown(Running)
        /// A connect is in progress: close this client (if made yet) so the connect fails, then wait.
        case abandon(Client?)
        /// A stop is already under way: wait for it.
        case wait
    }

    /// What happens once a connect succeeded.
    enum StartOutcome {
        /// Serving: resume these waiters.
        case ready([ReadyWaiter])
        /// A stop came while connecting: shut the new connection down and call ``stopped()``.
        case stopRequested
    }

    /// What happens to a readiness waiter.
    enum WaitOutcome {
        case ready
        case failed(any Error)
        /// Kept; resumed later by a start, a failure or a stop.
        case waiting
    }

    private(set) var phase = Phase.idle
    private(set) var readiness = Readiness.pending
    private var readyWaiters: [Int: ReadyWaiter] = [:]
    private var stopWaiters: [StopWaiter] = []
    private let stoppedError: any Error
    private let alreadyStartedError: any Error

    /// - Parameters:
    ///   - stoppedError: What waiters and a start get once the worker is stopped.
    ///   - alreadyStartedError: What a second start gets.
    init(stoppedError: any Error, alreadyStartedError: any Error) {
        self.stoppedError = stoppedError
        self.alreadyStartedError = alreadyStartedError
    }

    /// The running connection, if serving.
    var running: Running? {
        if case .running(let running) = phase { running } else { nil }
    }

    // MARK: Start

    /// `start()` begins. - Throws: the already-started error unless idle.
    mutating func startRequested() throws {
        guard case .idle = phase else { throw alreadyStartedError }
        phase = .starting(stopRequested: false, client: nil)
    }

    /// The client exists (not connected yet). Returns false when a stop came first: the start must give up.
    mutating func clientCreated(_ client: Client) -> Bool {
        guard case .starting(false, _) = phase else { return false }
        phase = .starting(stopRequested: false, client: client)
        return true
    }

    /// Whether a stop was requested while starting (a failed connect is then reported as stopped).
    var stopRequestedWhileStarting: Bool {
        if case .starting(true, _) = phase { true } else { false }
    }

    /// The connect succeeded.
    mutating func started(_ running: Running) -> StartOutcome {
        guard case .starting(false, _) = phase else { return .stopRequested }
        phase = .running(running)
        readiness = .ready
        defer { readyWaiters.removeAll() }
        return .ready(Array(readyWaiters.values))
    }

    /// The start failed with `error` (or was abandoned by a stop): the worker is stopped. Returns the error the
    /// start reports (`stopped` when a stop abandoned it) and the waiters to fail and to wake.
    mutating func startFailed(_ error: any Error) -> (
        reported: any Error, readyWaiters: [ReadyWaiter], stopWaiters: [StopWaiter]
    ) {
        let reported = stopRequestedWhileStarting ? stoppedError : error
        phase = .stopped
        let failed = settleReadiness(.failed(reported))
        defer { stopWaiters.removeAll() }
        return (reported, failed, stopWaiters)
    }

    // MARK: Readiness

    /// A `waitUntilReady()` caller arrives with `id`; `isCancelled` is its task's state.
    mutating func waitForReadiness(id: Int, waiter: ReadyWaiter, isCancelled: Bool) -> WaitOutcome {
        switch readiness {
        case .ready: return .ready
        case .failed(let error): return .failed(error)
        case .pending:
            if isCancelled { return .failed(CancellationError()) }
            readyWaiters[id] = waiter
            return .waiting
        }
    }

    /// A waiter's task was cancelled: the waiter to resume with `CancellationError`, if still waiting.
    mutating func cancelReadinessWait(id: Int) -> ReadyWaiter? {
        readyWaiters.removeValue(forKey: id)
    }

    // MARK: Stop

    /// `stop()` is called.
    mutating func stopRequested() -> StopAction {
        switch phase {
        case .idle, .stopped:
            phase = .stopped
            let failed = settleReadiness(.failed(stoppedError))
            defer { stopWaiters.removeAll() }
            return .stoppedAlready(readyWaiters: failed, stopWaiters: stopWaiters)
        case .starting(_, let client):
            phase = .starting(stopRequested: true, client: client)
            return .abandon(client)
        case .running(let running):
            phase = .stopping
            return .shutDown(running)
        case .stopping:
            return .wait
        }
    }

    /// A caller waits for the stop to finish; false when it already has (do not wait).
    mutating func waitForStop(_ waiter: StopWaiter) -> Bool {
        if case .stopped = phase { return false }
        stopWaiters.append(waiter)
        return true
    }

    /// The shutdown finished: every waiter is released (readiness waiters with `stopped`, from now on too).
    mutating func stopped() -> (readyWaiters: [ReadyWaiter], stopWaiters: [StopWaiter]) {
        phase = .stopped
        readiness = .failed(stoppedError)
        defer {
            readyWaiters.removeAll()
            stopWaiters.removeAll()
        }
        return (Array(readyWaiters.values), stopWaiters)
    }

    /// Settles a pending readiness; returns the waiters to fail (none if it was settled before).
    private mutating func settleReadiness(_ outcome: Readiness) -> [ReadyWaiter] {
        guard case .pending = readiness else { return [] }
        readiness = outcome
        defer { readyWaiters.removeAll() }
        return Array(readyWaiters.values)
    }
}
