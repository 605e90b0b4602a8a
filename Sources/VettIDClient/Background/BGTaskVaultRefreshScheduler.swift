#if canImport(BackgroundTasks) && !os(macOS)
    import BackgroundTasks
    import Foundation

    /// A ``BackgroundScheduler`` over `BGTaskScheduler` (iOS, iPadOS, tvOS, visionOS, Mac Catalyst), for
    /// ``VaultRefreshTask`` with identifier ``VaultRefreshTask/defaultIdentifier`` (`dev.vettid.vaultsync`) every six
    /// hours as `BGAppRefreshTaskRequest`s.
    ///
    /// Add `dev.vettid.vaultsync` to the app's `BGTaskSchedulerPermittedIdentifiers` and enable the "Background fetch"
    /// mode; register (``VaultRefreshTask/register()``) before the app finishes launching. When iOS expires the task
    /// its expiration handler cancels the sync's task; the task is completed with the handler's result.
    ///
    /// > Note: built only where `BackgroundTasks` can be imported (not on macOS). On Linux it is type-checked against
    /// > Tests/AppleAPIShims (scripts/check-apple-only) but never run; ``InProcessBackgroundScheduler`` has the same
    /// > contract and is tested.
    public final class BGTaskVaultRefreshScheduler: BackgroundScheduler, @unchecked Sendable {
        private let lock = NSLock()
        private var registered: Set<String> = []

        /// Creates the scheduler (it uses `BGTaskScheduler.shared`).
        public init() {}

        /// Registers the launch handler once per identifier (`BGTaskScheduler` does not allow a second registration).
        /// - Throws: ``BackgroundSchedulerError`` `registration_failed` when the identifier is not permitted.
        public func register(identifier: String, handler: @escaping BackgroundTaskHandler)
            throws(BackgroundSchedulerError)
        {
            lock.lock()
            defer { lock.unlock() }
            guard !registered.contains(identifier) else { return }
            let accepted = BGTaskScheduler.shared.register(forTaskWithIdentifier: identifier, using: nil) { task in
                let box = BackgroundTaskBox(task: task)
                let work = Task { await handler() }
                task.expirationHandler = { work.cancel() }
                Task { box.task.setTaskCompleted(success: await work.value) }
            }
            guard accepted else {
                throw BackgroundSchedulerError(
                    code: .registrationFailed,
                    message: "BGTaskScheduler refused '\(identifier)'; is it in BGTaskSchedulerPermittedIdentifiers?"
                )
            }
            registered.insert(identifier)
        }

        /// Submits a `BGAppRefreshTaskRequest` with `earliestBeginDate` = now + `interval`.
        public func schedule(identifier: String, interval: Duration) throws(BackgroundSchedulerError) {
            let request = BGAppRefreshTaskRequest(identifier: identifier)
            let seconds = Double(interval.components.seconds) + Double(interval.components.attoseconds) / 1e18
            request.earliestBeginDate = Date(timeIntervalSinceNow: seconds)
            do {
                try BGTaskScheduler.shared.submit(request)
            } catch {
                throw BackgroundSchedulerError(
                    code: .submitFailed, message: "BGTaskScheduler refused the request for '\(identifier)'.",
                    underlying: error)
            }
        }

        /// Cancels the pending request.
        public func cancel(identifier: String) {
            BGTaskScheduler.shared.cancel(taskRequestWithIdentifier: identifier)
        }
    }

    /// Carries the system's task into the completion task (BGTask is thread-safe but not marked Sendable).
    private struct BackgroundTaskBox: @unchecked Sendable {
        let task: BGTask
    }
#endif
