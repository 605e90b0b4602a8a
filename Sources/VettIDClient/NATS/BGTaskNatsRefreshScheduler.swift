#if canImport(BackgroundTasks) && !os(macOS)
    /// The `BGTaskScheduler`-backed ``BackgroundScheduler`` for ``NatsTokenRefreshTask``: the same scheduler as
    /// ``BGTaskVaultRefreshScheduler``, which serves any identifier (one `BGAppRefreshTaskRequest` per identifier).
    ///
    /// Add `dev.vettid.natsrefresh` to the app's `BGTaskSchedulerPermittedIdentifiers` and register
    /// (``NatsTokenRefreshTask/register()``) before the app finishes launching. One instance may serve both the vault
    /// and the NATS refresh.
    ///
    /// > Note: built only where `BackgroundTasks` can be imported (not on macOS). On Linux it is type-checked against
    /// > Tests/AppleAPIShims (scripts/check-apple-only) but never run; ``InProcessBackgroundScheduler`` has the same
    /// > contract and is tested.
    public typealias BGTaskNatsRefreshScheduler = BGTaskVaultRefreshScheduler
#endif
