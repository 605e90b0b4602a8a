// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

#if canImport(BackgroundTasks) && !os(macOS)
    // Written for Apple platforms. Type-checked on Linux against Tests/AppleAPIShims (scripts/check-apple-only, in
    // the test command); never run on a device by this project: test it on one before relying on it (docs/ios.md).

    import BackgroundTasks
    public import Foundation
    import VettIDCrypto

    /// The ``BackgroundRefreshSystem`` over `BGTaskScheduler.shared` (iOS, iPadOS, tvOS, visionOS, Mac Catalyst):
    /// `BGAppRefreshTaskRequest`s, one launch handler per identifier.
    ///
    /// Which identifiers are registered is kept for the whole process (`BackgroundTaskRegistry`), so what
    /// `BGTaskScheduler` would answer with an Objective-C exception becomes a ``BackgroundSchedulerError``: a second
    /// registration of an identifier (`already_registered`), a registration after the app finished launching or after
    /// the first submit (`registration_closed`), a request for an identifier never registered (`not_registered`).
    /// The end of launch is observed through `UIApplication.didFinishLaunchingNotification` (by its name, so this file
    /// needs no UIKit) once the first instance exists; create ``BackgroundRefreshScheduler/shared`` early.
    ///
    /// Add both ``BackgroundRefreshScheduler/launchIdentifiers`` to the app's `BGTaskSchedulerPermittedIdentifiers`
    /// and `fetch` to its `UIBackgroundModes` (docs/ios.md).
    public struct BGTaskRefreshSystem: BackgroundRefreshSystem {
        private static let registry = LockedValue(BackgroundTaskRegistry())
        /// Closes registration when the app finishes launching. The notification center keeps the observer for the
        /// life of the process.
        private static let launchEndObserver: Void = {
            _ = NotificationCenter.default.addObserver(
                forName: Notification.Name("UIApplicationDidFinishLaunchingNotification"), object: nil, queue: nil
            ) { _ in
                registry.withLock { $0.close() }
            }
        }()

        /// Uses `BGTaskScheduler.shared`.
        public init() {
            _ = Self.launchEndObserver
        }

        /// `BGTaskScheduler.register(forTaskWithIdentifier:using:launchHandler:)`, at most once per identifier and
        /// process, and only before launch ends.
        public func register(
            identifier: String, launchHandler: @escaping @Sendable (any BackgroundRefreshLaunch) -> Void
        ) throws(BackgroundSchedulerError) {
            let outcome = Self.registry.withLock { registry in
                registry.register(identifier) {
                    BGTaskScheduler.shared.register(forTaskWithIdentifier: identifier, using: nil) { task in
                        launchHandler(BGTaskLaunch(task: task))
                    }
                }
            }
            switch outcome {
            case .registered:
                return
            case .alreadyRegistered:
                throw BackgroundSchedulerError(
                    code: .alreadyRegistered,
                    message: "'\(identifier)' already has a launch handler in this process; use one scheduler "
                        + "(BackgroundRefreshScheduler.shared).")
            case .closed:
                throw BackgroundSchedulerError(
                    code: .registrationClosed,
                    message: "'\(identifier)' was registered after the app finished launching; register launch "
                        + "handlers in App.init or application(_:didFinishLaunchingWithOptions:).")
            case .refused:
                throw BackgroundSchedulerError(
                    code: .registrationFailed,
                    message: "BGTaskScheduler refused '\(identifier)'; is it in BGTaskSchedulerPermittedIdentifiers?")
            }
        }

        /// Submits a `BGAppRefreshTaskRequest` for `identifier` (registered first, or `not_registered`).
        public func submit(identifier: String, earliestBeginDate: Date) throws(BackgroundSchedulerError) {
            guard Self.registry.withLock({ $0.prepareSubmit(identifier) }) else {
                throw BackgroundSchedulerError(
                    code: .notRegistered, message: "'\(identifier)' has no launch handler registered at launch.")
            }
            let request = BGAppRefreshTaskRequest(identifier: identifier)
            request.earliestBeginDate = earliestBeginDate
            do {
                try BGTaskScheduler.shared.submit(request)
            } catch {
                throw BackgroundSchedulerError(
                    code: .submitFailed, message: "BGTaskScheduler refused the request for '\(identifier)'.",
                    underlying: error)
            }
        }

        /// `BGTaskScheduler.cancel(taskRequestWithIdentifier:)`.
        public func cancel(identifier: String) {
            BGTaskScheduler.shared.cancel(taskRequestWithIdentifier: identifier)
        }
    }

    /// A `BGTask` as a ``BackgroundRefreshLaunch``. `BGTask` is not marked `Sendable`; the launch handler hands it
    /// to the scheduler, which sets its expiration handler once and completes it once, under its lock.
    private struct BGTaskLaunch: BackgroundRefreshLaunch, @unchecked Sendable {
        let task: BGTask

        var identifier: String { task.identifier }

        func setExpirationHandler(_ handler: @escaping @Sendable () -> Void) {
            task.expirationHandler = handler
        }

        func setCompleted(success: Bool) {
            task.setTaskCompleted(success: success)
        }
    }

    extension BackgroundRefreshScheduler {
        /// The process's scheduler over `BGTaskScheduler` (iOS, iPadOS, tvOS, visionOS, Mac Catalyst). Call
        /// ``registerLaunchHandlers(for:)`` on it before the app finishes launching.
        public static let shared = BackgroundRefreshScheduler(system: BGTaskRefreshSystem())
    }
#endif
