// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Logging
import VettIDCore

/// What one background vault refresh did.
public enum VaultRefreshOutcome: Sendable {
    /// The sync succeeded (new keys, if any, are stored).
    case synced(VaultSyncResult)
    /// The sync failed; the next run is scheduled anyway.
    case failed(APIError)
    /// The scheduler expired the run and the sync was cancelled; the next run is scheduled anyway.
    case expired
    /// The member's session has ended (signed out, revoked, or its refresh token expired): the task stops and
    /// starts again only when the app calls ``VaultRefreshTask/start(firstRunAfter:)`` after the member signs in.
    case signInRequired(APIError)
}

/// Keeps the vault synced in the background: every run calls ``VaultService/syncVault()`` (which stores
/// replenished transaction keys) and schedules the next run ``interval`` later, on any ``BackgroundScheduler``.
///
/// ```swift
/// // iOS, at launch (Info.plist BGTaskSchedulerPermittedIdentifiers contains "dev.vettid.vaultsync"):
/// try BackgroundRefreshScheduler.shared.registerLaunchHandlers()
/// // iOS, after sign-in (the vault service exists now):
/// let refresh = VaultRefreshTask(service: vault, scheduler: BackgroundRefreshScheduler.shared)
/// try await refresh.start()
///
/// // Linux / CLI: an in-process scheduler; print each outcome
/// let refresh = VaultRefreshTask(service: vault, scheduler: InProcessBackgroundScheduler())
/// try await refresh.start(firstRunAfter: .zero)
/// for await outcome in refresh.outcomes { print(outcome) }
/// ```
///
/// When the scheduler expires a run, the sync's task is cancelled (cooperatively) and the outcome is
/// ``VaultRefreshOutcome/expired``. The sync runs without a screen: give the service the member's session
/// (``VaultService/memberSession``, as ``VettID`` does), which refreshes itself for as long as the member stays
/// signed in; once that session has ended the outcome is ``VaultRefreshOutcome/signInRequired(_:)`` and the task
/// stops. (Without a member session the sync uses the vault session, which expires after minutes.)
public actor VaultRefreshTask {
    /// `dev.vettid.vaultsync`.
    public static let defaultIdentifier = "dev.vettid.vaultsync"
    /// Six hours.
    public static let defaultInterval: Duration = .seconds(6 * 60 * 60)

    /// The scheduler identifier.
    public nonisolated var identifier: String { periodic.identifier }
    /// The time between runs.
    public nonisolated var interval: Duration { periodic.interval }
    /// Every run's outcome, in order (one consumer; buffered).
    public nonisolated let outcomes: AsyncStream<VaultRefreshOutcome>
    private nonisolated let continuation: AsyncStream<VaultRefreshOutcome>.Continuation
    private nonisolated let periodic: PeriodicBackgroundRun
    private nonisolated let sync: @Sendable () async throws -> VaultSyncResult
    private nonisolated let logger: Logger

    /// Creates a refresh task over a sync function.
    /// - Parameters:
    ///   - scheduler: What runs it.
    ///   - identifier: The scheduler identifier (``defaultIdentifier``).
    ///   - interval: Between runs (``defaultInterval``, six hours).
    ///   - logger: Where runs are logged.
    ///   - sync: One sync (cancellable).
    public init(
        scheduler: any BackgroundScheduler,
        identifier: String = VaultRefreshTask.defaultIdentifier,
        interval: Duration = VaultRefreshTask.defaultInterval,
        logger: Logger = Logger(label: "dev.vettid.vault.refresh"),
        sync: @escaping @Sendable () async throws -> VaultSyncResult
    ) {
        self.periodic = PeriodicBackgroundRun(
            scheduler: scheduler, identifier: identifier, interval: interval, name: "Vault refresh", logger: logger)
        self.logger = logger
        self.sync = sync
        (outcomes, continuation) = AsyncStream.makeStream(of: VaultRefreshOutcome.self)
    }

    /// Creates a refresh task that calls `service.syncVault()`.
    public init(
        service: any VaultServiceProtocol,
        scheduler: any BackgroundScheduler,
        identifier: String = VaultRefreshTask.defaultIdentifier,
        interval: Duration = VaultRefreshTask.defaultInterval,
        logger: Logger = Logger(label: "dev.vettid.vault.refresh")
    ) {
        self.init(scheduler: scheduler, identifier: identifier, interval: interval, logger: logger) {
            try await service.syncVault()
        }
    }

    /// Attaches the run to the scheduler (``start(firstRunAfter:)`` does it too). With
    /// ``BackgroundRefreshScheduler`` the identifier's launch handler must have been registered at launch.
    public nonisolated func register() throws(BackgroundSchedulerError) {
        try periodic.register { [self] in await self.run() }
    }

    /// Registers (again, harmlessly) and schedules the first run.
    /// - Parameter firstRunAfter: When the first run may start (``interval`` unless given; `.zero` syncs now).
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

    /// One run: sync, then schedule the next (unless stopped), then report the outcome.
    func run() async -> Bool {
        await periodic.run { [sync] in
            do {
                return VaultRefreshOutcome.synced(try await sync())
            } catch {
                if Task.isCancelled { return .expired }
                let apiError = APIError.from(error)
                return apiError.code == .signInRequired ? .signInRequired(apiError) : .failed(apiError)
            }
        } stopsAfter: { outcome in
            if case .signInRequired = outcome { true } else { false }
        } report: { [logger, continuation] outcome in
            switch outcome {
            case .synced(let result):
                logger.debug(
                    "Vault refresh: synced",
                    metadata: [
                        "vault.sync_status": "\(result.status)", "vault.stored_keys": "\(result.storedTransactionKeys)",
                    ])
            case .failed(let error):
                logger.warning("Vault refresh: sync failed", metadata: ["error.code": "\(error.code)"])
            case .expired:
                logger.warning("Vault refresh: expired before the sync finished")
            case .signInRequired:
                logger.notice("Vault refresh: the member session has ended; stopped until the member signs in")
            }
            continuation.yield(outcome)
            if case .synced = outcome { return true }
            return false
        }
    }
}
