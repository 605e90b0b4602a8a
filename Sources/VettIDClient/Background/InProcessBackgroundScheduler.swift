// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
public import Logging
import VettIDCrypto

/// A ``BackgroundScheduler`` that runs work in this process, timed by an injected clock: for Linux, the CLI's
/// `vettid vault watch`, and tests (with a manual clock, nothing sleeps for real).
///
/// Each ``schedule(identifier:interval:)`` starts one timer (replacing the identifier's pending one); when it fires,
/// the handler runs in a new task. ``expire(identifier:)`` (or ``maximumRunDuration`` elapsing) cancels that task, the
/// way iOS expires a background task. Nothing survives the process.
public final class InProcessBackgroundScheduler: BackgroundScheduler, Sendable {
    /// A run longer than this is expired (cancelled); `nil` never expires runs.
    public let maximumRunDuration: Duration?
    private let clock: any Clock<Duration>
    private let logger: Logger
    private struct State {
        var handlers: [String: BackgroundTaskHandler] = [:]
        var pending: [String: (generation: UInt64, timer: Task<Void, Never>)] = [:]
        var running: [String: [UInt64: Task<Bool, Never>]] = [:]
        var generation: UInt64 = 0
    }

    // All mutable state is in this box; tasks are created under its lock and only touch state through it.
    private let state = LockedValue(State())

    /// Creates a scheduler.
    /// - Parameters:
    ///   - clock: Times the requests and ``maximumRunDuration`` (`ContinuousClock` unless given; tests pass a manual clock).
    ///   - maximumRunDuration: Expire runs after this long (`nil`: never).
    ///   - logger: Where scheduling is logged.
    public init(
        clock: any Clock<Duration> = ContinuousClock(),
        maximumRunDuration: Duration? = nil,
        logger: Logger = Logger(label: "dev.vettid.background")
    ) {
        self.clock = clock
        self.maximumRunDuration = maximumRunDuration
        self.logger = logger
    }

    deinit {
        for entry in state.withLock({ $0.pending.values }) { entry.timer.cancel() }
    }

    /// Registers (or replaces) the handler of `identifier`.
    public func register(identifier: String, handler: @escaping BackgroundTaskHandler) throws(BackgroundSchedulerError)
    {
        state.withLock { state in state.handlers[identifier] = handler }
    }

    /// Starts a timer for one run `interval` from now on the clock, replacing the pending one.
    /// - Throws: ``BackgroundSchedulerError`` `not_registered`.
    public func schedule(identifier: String, interval: Duration) throws(BackgroundSchedulerError) {
        let registered = state.withLock { state -> Bool in
            guard state.handlers[identifier] != nil else { return false }
            state.pending[identifier]?.timer.cancel()
            state.generation += 1
            let current = state.generation
            let clock = self.clock
            let timer = Task { [weak self] in
                do {
                    try await clock.sleep(for: interval)
                } catch {
                    return
                }
                await self?.fire(identifier, generation: current)
            }
            state.pending[identifier] = (current, timer)
            return true
        }
        guard registered else {
            throw BackgroundSchedulerError(
                code: .notRegistered, message: "No handler is registered for '\(identifier)'.")
        }
        logger.debug(
            "Background: scheduled",
            metadata: ["background.identifier": "\(identifier)", "background.interval": "\(interval)"])
    }

    /// Cancels the pending timer of `identifier`; a run in progress continues.
    public func cancel(identifier: String) {
        state.withLock { state in state.pending.removeValue(forKey: identifier)?.timer.cancel() }
    }

    /// Expires the runs of `identifier` in progress: their tasks are cancelled.
    public func expire(identifier: String) {
        let tasks = state.withLock { state in state.running[identifier].map { Array($0.values) } ?? [] }
        for task in tasks { task.cancel() }
        if !tasks.isEmpty { logger.debug("Background: expired", metadata: ["background.identifier": "\(identifier)"]) }
    }

    /// Whether a run of `identifier` is pending.
    public func isScheduled(identifier: String) -> Bool {
        state.withLock { state in state.pending[identifier] != nil }
    }

    /// Whether a run of `identifier` is in progress.
    public func isRunning(identifier: String) -> Bool {
        state.withLock { state in !(state.running[identifier]?.isEmpty ?? true) }
    }

    private func fire(_ identifier: String, generation expected: UInt64) async {
        let started = state.withLock { state -> (run: Task<Bool, Never>, expiry: Task<Void, Never>?)? in
            guard state.pending[identifier]?.generation == expected, let handler = state.handlers[identifier] else {
                return nil
            }
            state.pending.removeValue(forKey: identifier)
            let run = Task { await handler() }
            state.running[identifier, default: [:]][expected] = run
            var expiry: Task<Void, Never>?
            if let limit = maximumRunDuration {
                let clock = self.clock
                expiry = Task {
                    do {
                        try await clock.sleep(for: limit)
                    } catch {
                        return
                    }
                    run.cancel()
                }
            }
            return (run, expiry)
        }
        guard let started else { return }
        logger.debug("Background: running", metadata: ["background.identifier": "\(identifier)"])
        let success = await started.run.value
        started.expiry?.cancel()
        state.withLock { state in _ = state.running[identifier]?.removeValue(forKey: expected) }
        logger.debug(
            "Background: finished",
            metadata: ["background.identifier": "\(identifier)", "background.success": "\(success)"])
    }
}
