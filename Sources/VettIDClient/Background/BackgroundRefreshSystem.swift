// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation

/// The operating system's side of ``BackgroundRefreshScheduler``: `BGTaskScheduler` on iOS (`BGTaskRefreshSystem`),
/// a scripted fake in tests.
///
/// Implementations must be process-wide where the system is (registering an identifier twice, or after launch, is
/// refused with a ``BackgroundSchedulerError``, never a crash), and must not call back into the scheduler from inside
/// these methods.
public protocol BackgroundRefreshSystem: Sendable {
    /// Registers the launch handler of `identifier`.
    /// - Throws: ``BackgroundSchedulerError`` `already_registered`, `registration_closed` (after launch) or
    ///   `registration_failed` (not a permitted identifier).
    func register(identifier: String, launchHandler: @escaping @Sendable (any BackgroundRefreshLaunch) -> Void)
        throws(BackgroundSchedulerError)

    /// Submits one refresh request of `identifier`, to run no earlier than `earliestBeginDate` (replacing a pending
    /// request of the same identifier).
    /// - Throws: ``BackgroundSchedulerError`` `not_registered` or `submit_failed`.
    func submit(identifier: String, earliestBeginDate: Date) throws(BackgroundSchedulerError)

    /// Cancels the pending request of `identifier`, if any.
    func cancel(identifier: String)
}

/// One background launch the system gives the app (a `BGTask` on iOS).
public protocol BackgroundRefreshLaunch: Sendable {
    /// The identifier of the request that was launched.
    var identifier: String { get }
    /// Sets what runs when the system takes the time back (before any work starts).
    func setExpirationHandler(_ handler: @escaping @Sendable () -> Void)
    /// Tells the system the launch is over.
    func setCompleted(success: Bool)
}
