// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCore

/// The work a ``BackgroundScheduler`` runs for one identifier; returns whether it succeeded.
///
/// It runs in its own task. When the system takes the time back (iOS ends a background task, or an
/// ``InProcessBackgroundScheduler`` run outlives its limit) the scheduler **cancels** that task: the work must
/// react to cancellation cooperatively (URLSession and AsyncHTTPClient requests do) and return soon.
public typealias BackgroundTaskHandler = @Sendable () async -> Bool

/// The seam between periodic SDK work (``VaultRefreshTask``, ``NatsTokenRefreshTask``) and whatever runs it:
/// ``BackgroundRefreshScheduler`` (on iOS `BackgroundRefreshScheduler.shared`, over `BGTaskScheduler`), a
/// clock-driven scheduler elsewhere (``InProcessBackgroundScheduler``), a fake in tests.
///
/// The model: attach a handler per identifier, then ask for single runs no earlier than an interval from now; the
/// handler reschedules itself for the next one.
public protocol BackgroundScheduler: Sendable {
    /// Attaches the work of `identifier`. Registering the same identifier again keeps one handler, the last one. (On
    /// iOS the identifier's launch handler must have been registered at launch:
    /// ``BackgroundRefreshScheduler/registerLaunchHandlers(for:)``.)
    /// - Throws: ``BackgroundSchedulerError`` `registration_failed` (e.g. the identifier is not permitted).
    func register(identifier: String, handler: @escaping BackgroundTaskHandler) throws(BackgroundSchedulerError)

    /// Asks for one run of `identifier`'s work no earlier than `interval` from now, replacing a pending request of
    /// the same identifier.
    /// - Throws: ``BackgroundSchedulerError`` `not_registered`, `submit_failed`.
    func schedule(identifier: String, interval: Duration) throws(BackgroundSchedulerError)

    /// Cancels the pending request of `identifier` (a run in progress finishes; it may reschedule unless its owner
    /// stopped it, as ``VaultRefreshTask/stop()`` does).
    func cancel(identifier: String)
}

/// The family of ``BackgroundSchedulerError``.
public enum BackgroundSchedulerErrorDomain: ErrorDomain {}

/// A failure to register or schedule background work. The code set is open.
public typealias BackgroundSchedulerError = DomainError<BackgroundSchedulerErrorDomain>

extension BackgroundSchedulerError.Code {
    /// `not_registered`: no handler is registered for the identifier (on iOS: it was not registered with
    /// ``BackgroundRefreshScheduler/registerLaunchHandlers(for:)`` at launch).
    public static let notRegistered = Self(rawValue: "not_registered")
    /// `registration_failed`: the system refused the registration (e.g. not in `BGTaskSchedulerPermittedIdentifiers`).
    public static let registrationFailed = Self(rawValue: "registration_failed")
    /// `already_registered`: another scheduler of this process registered the identifier's launch handler
    /// (`BGTaskScheduler` allows one per process; use `BackgroundRefreshScheduler.shared`).
    public static let alreadyRegistered = Self(rawValue: "already_registered")
    /// `registration_closed`: launch handlers can be registered only before the app finishes launching (and
    /// before the first request is submitted).
    public static let registrationClosed = Self(rawValue: "registration_closed")
    /// `submit_failed`: the system refused the request (background refresh off, too many pending requests, …).
    public static let submitFailed = Self(rawValue: "submit_failed")
}
