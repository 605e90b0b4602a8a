// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation
public import Logging
public import VettIDCore

/// Keeps the stored NATS token fresh in the background: every run (``defaultInterval``, six hours) checks the
/// stored ``NatsCredentials`` and, when they are missing or ``NatsCredentials/shouldRefresh(at:refreshWindow:)``,
/// asks the ``NatsCredentialProvider`` for new ones, stores them and hands them to `onRefresh` (typically a
/// connected `NatsConnectionManager`'s `refresh(using:)`, in `VettIDNats`, which swaps to them without
/// losing messages). It runs on any ``BackgroundScheduler``.
///
/// ```swift
/// // iOS, at launch (Info.plist BGTaskSchedulerPermittedIdentifiers contains "dev.vettid.natsrefresh"):
/// try BackgroundRefreshScheduler.shared.registerLaunchHandlers()
/// // iOS, after sign-in:
/// let refresh = NatsTokenRefreshTask(provider: vault, store: credentialStore,
///                                    scheduler: BackgroundRefreshScheduler.shared, manager: manager)
/// try await refresh.start()
/// ```
public actor NatsTokenRefreshTask {
    /// `dev.vettid.natsrefresh`.
    public static let defaultIdentifier = "dev.vettid.natsrefresh"
    /// Six hours.
    public static let defaultInterval: Duration = .seconds(6 * 60 * 60)

    /// The scheduler identifier.
    public nonisolated var identifier: String { periodic.identifier }
    /// The time between runs.
    public nonisolated var interval: Duration { periodic.interval }
    /// Refresh when less than this remains.
    public nonisolated let refreshWindow: TimeInterval
    /// Every run's outcome, in order (one consumer; buffered).
    public nonisolated let outcomes: AsyncStream<NatsRefreshOutcome>
    private nonisolated let continuation: AsyncStream<NatsRefreshOutcome>.Continuation
    private nonisolated let periodic: PeriodicBackgroundRun
    private nonisolated let provider: any NatsCredentialProvider
    private nonisolated let store: NatsCredentialStore
    private nonisolated let onRefresh: @Sendable (NatsCredentials) async -> Void
    private nonisolated let afterRun: @Sendable () async -> Void
    private nonisolated let clock: any WallClock
    private nonisolated let logger: Logger

    /// Creates a refresh task.
    /// - Parameters:
    ///   - provider: Issues the new credentials (``VaultService``).
    ///   - store: Where the credentials live (the manager's store).
    ///   - scheduler: What runs it (`BackgroundRefreshScheduler.shared` on iOS, shared with ``VaultRefreshTask``;
    ///     ``InProcessBackgroundScheduler`` elsewhere).
    ///   - identifier: ``defaultIdentifier`` unless given.
    ///   - interval: ``defaultInterval`` unless given.
    ///   - refreshWindow: ``NatsCredentials/defaultRefreshWindow`` (one hour) unless given.
    ///   - logger: Where runs are logged (token ids and expiries only).
    ///   - clock: The clock for expiry checks.
    ///   - onRefresh: Called with new credentials after they are stored.
    ///   - afterRun: Called at the end of every scheduled run that left usable credentials (refreshed or not
    ///     needed): where the manager catches up on the device's mailbox in a background launch.
    public init(
        provider: any NatsCredentialProvider,
        store: NatsCredentialStore,
        scheduler: any BackgroundScheduler,
        identifier: String = NatsTokenRefreshTask.defaultIdentifier,
        interval: Duration = NatsTokenRefreshTask.defaultInterval,
        refreshWindow: TimeInterval = NatsCredentials.defaultRefreshWindow,
        logger: Logger = Logger(label: "dev.vettid.nats.refresh"),
        clock: any WallClock = SystemWallClock(),
        onRefresh: @escaping @Sendable (NatsCredentials) async -> Void = { _ in },
        afterRun: @escaping @Sendable () async -> Void = {}
    ) {
        self.provider = provider
        self.store = store
        self.periodic = PeriodicBackgroundRun(
            scheduler: scheduler, identifier: identifier, interval: interval, name: "NATS refresh", logger: logger)
        self.refreshWindow = refreshWindow
        self.logger = logger
        self.clock = clock
        self.onRefresh = onRefresh
        self.afterRun = afterRun
        (outcomes, continuation) = AsyncStream.makeStream(of: NatsRefreshOutcome.self)
    }

    /// Attaches the run to the scheduler (``start(firstRunAfter:)`` does it too). With
    /// ``BackgroundRefreshScheduler`` the identifier's launch handler must have been registered at launch.
    public nonisolated func register() throws(BackgroundSchedulerError) {
        try periodic.register { [self] in await self.run() }
    }

    /// Registers (again, harmlessly) and schedules the first run (``interval`` from now unless given).
    public func start(firstRunAfter: Duration? = nil) async throws(BackgroundSchedulerError) {
        try await periodic.start(firstRunAfter: firstRunAfter) { [self] in await self.run() }
    }

    /// Cancels the pending run; a run in progress finishes without rescheduling.
    public func stop() async {
        await periodic.stop()
    }

    /// Whether the task is started and not stopped.
    public var isStarted: Bool {
        get async { await periodic.isStarted }
    }

    /// One run: refresh when needed, schedule the next (unless stopped), report the outcome.
    func run() async -> Bool {
        await periodic.run {
            let outcome = await self.refreshIfNeeded()
            switch outcome {
            case .refreshed, .notNeeded: await self.afterRun()
            case .failed, .expired, .signInRequired: break
            }
            return outcome
        } stopsAfter: { outcome in
            if case .signInRequired = outcome { true } else { false }
        } report: { [continuation] outcome in
            continuation.yield(outcome)
            switch outcome {
            case .refreshed, .notNeeded: return true
            case .failed, .expired, .signInRequired: return false
            }
        }
    }

    /// Refreshes the stored credentials if they are missing or within the refresh window.
    public func refreshIfNeeded() async -> NatsRefreshOutcome {
        if let stored = await store.load(), !stored.shouldRefresh(at: clock.now(), refreshWindow: refreshWindow) {
            logger.debug(
                "NATS refresh: not needed",
                metadata: ["nats.token_id": "\(stored.tokenID)", "nats.expires_at": "\(stored.expiresAt)"])
            return .notNeeded(expiresAt: stored.expiresAt)
        }
        let credentials: NatsCredentials
        do {
            credentials = try await provider.issueCredentials()
        } catch {
            if Task.isCancelled { return .expired }
            if APIError.unwrap(error)?.code == .signInRequired {
                logger.notice("NATS refresh: the member session has ended; stopped until the member signs in")
                return .signInRequired
            }
            let summary = NatsRefreshOutcome.summary(of: error)
            logger.warning("NATS refresh: no new credentials", metadata: ["error": "\(summary)"])
            return .failed(summary)
        }
        do {
            try await store.save(credentials)
        } catch {
            logger.warning(
                "NATS refresh: the credentials could not be stored", metadata: ["error.code": "\(error.code)"])
            return .failed("\(error.code.rawValue): \(error.description)")
        }
        logger.info(
            "NATS refresh: new token stored",
            metadata: ["nats.token_id": "\(credentials.tokenID)", "nats.expires_at": "\(credentials.expiresAt)"])
        await onRefresh(credentials)
        return .refreshed(credentials)
    }
}
