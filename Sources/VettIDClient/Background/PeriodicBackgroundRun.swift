// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Logging

/// The register / start / stop / run-and-reschedule cycle of a periodic task on a ``BackgroundScheduler``, shared by
/// ``VaultRefreshTask`` and ``NatsTokenRefreshTask`` (each supplies its work and how it reports an outcome).
actor PeriodicBackgroundRun {
    nonisolated let identifier: String
    nonisolated let interval: Duration
    private nonisolated let scheduler: any BackgroundScheduler
    private nonisolated let logger: Logger
    /// Names the task in log lines ("Vault refresh").
    private nonisolated let name: String
    private var stopped = true

    init(scheduler: any BackgroundScheduler, identifier: String, interval: Duration, name: String, logger: Logger) {
        self.scheduler = scheduler
        self.identifier = identifier
        self.interval = interval
        self.name = name
        self.logger = logger
    }

    /// Registers `run` as the identifier's handler.
    nonisolated func register(_ run: @escaping BackgroundTaskHandler) throws(BackgroundSchedulerError) {
        try scheduler.register(identifier: identifier, handler: run)
    }

    /// Registers (again, harmlessly) and schedules the first run (``interval`` from now unless given).
    func start(firstRunAfter: Duration?, run: @escaping BackgroundTaskHandler) throws(BackgroundSchedulerError) {
        try register(run)
        stopped = false
        try scheduler.schedule(identifier: identifier, interval: firstRunAfter ?? interval)
    }

    /// Cancels the pending run; a run in progress finishes without rescheduling.
    func stop() {
        stopped = true
        scheduler.cancel(identifier: identifier)
    }

    /// Whether the task is started and not stopped.
    var isStarted: Bool { !stopped }

    /// One run: the work, then the next run scheduled (unless stopped, or the outcome is one that `stopsAfter`
    /// says ends the cycle, such as a member session that is over), then the outcome reported; returns what
    /// `report` says about success. Does nothing once stopped.
    func run<Outcome: Sendable>(
        _ work: @Sendable () async -> Outcome,
        stopsAfter: @Sendable (Outcome) -> Bool = { _ in false },
        report: @Sendable (Outcome) -> Bool
    ) async -> Bool {
        guard !stopped else { return true }
        let outcome = await work()
        if stopsAfter(outcome) {
            stopped = true
            scheduler.cancel(identifier: identifier)
            logger.notice("\(name): stopped until the member signs in again")
        } else if !stopped {
            do {
                try scheduler.schedule(identifier: identifier, interval: interval)
            } catch {
                logger.error("\(name): the next run could not be scheduled", metadata: ["error.code": "\(error.code)"])
            }
        }
        return report(outcome)
    }
}
