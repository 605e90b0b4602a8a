// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// Which identifiers have a launch handler registered with the system, for the whole process: `BGTaskScheduler`
/// raises an Objective-C exception (not an error) when an identifier is registered twice, when a handler is
/// registered after the app finished launching, or when a request is submitted for an identifier without one. This
/// value decides first, so those become ``BackgroundSchedulerError``s.
///
/// Registration closes at the first submit and when the app finishes launching (the Apple system closes it then);
/// a plain value, tested on Linux.
struct BackgroundTaskRegistry: Sendable, Equatable {
    /// What a registration came to.
    enum Registration: Sendable, Equatable {
        /// Registered now.
        case registered
        /// Registered before, by this or another scheduler: nothing was asked of the system.
        case alreadyRegistered
        /// Too late: the app finished launching (or submitted a request already).
        case closed
        /// The system refused it (the identifier is not in `BGTaskSchedulerPermittedIdentifiers`).
        case refused
    }

    /// The registered identifiers.
    private(set) var registered: Set<String> = []
    /// Whether registration is over.
    private(set) var isClosed = false

    /// Registers `identifier` by calling `system` (which returns whether the system accepted it), unless it is
    /// registered already or registration is closed.
    mutating func register(_ identifier: String, with system: () -> Bool) -> Registration {
        if registered.contains(identifier) { return .alreadyRegistered }
        if isClosed { return .closed }
        guard system() else { return .refused }
        registered.insert(identifier)
        return .registered
    }

    /// Whether a request of `identifier` may be submitted; closes registration.
    mutating func prepareSubmit(_ identifier: String) -> Bool {
        isClosed = true
        return registered.contains(identifier)
    }

    /// Ends registration (the app finished launching).
    mutating func close() {
        isClosed = true
    }
}
