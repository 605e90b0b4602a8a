// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDClient
import VettIDCore

/// The pure logic of the vault status screen: events in, a new ``VaultState`` and an ``Effect`` out.
///
/// Every answer maps to a state: the five known statuses to their cases (`error` with the vault's message and a
/// retry), an unknown status to a non-retryable error; 409 `not_enrolled` to ``VaultState/notEnrolled``; a network
/// failure, 429 or 5xx to a retryable error. A 401 (`invalid_token`, or `reauthentication_required` from the SDK)
/// asks for **one** re-authentication per user action and repeats the request; a second one ends in an error.
/// A successful sync is followed by a status read. Tested without a network.
public struct VaultStatusStateMachine: Sendable {
    /// What the view model must do next.
    public enum Effect: Sendable, Equatable {
        /// Nothing.
        case none
        /// Read the status.
        case fetchStatus
        /// Sync the vault.
        case sync
        /// Re-authenticate the vault session, then report ``reauthenticated()`` or ``reauthenticationFailed(_:)``.
        case reauthenticate
    }

    /// The request a user action started.
    enum Operation: Sendable, Equatable {
        case status
        case sync

        var effect: Effect { self == .status ? .fetchStatus : .sync }
    }

    enum Phase: Sendable, Equatable {
        case idle
        case running(Operation)
        case reauthenticating(Operation)
    }

    /// The current state.
    public private(set) var state: VaultState = .loading
    private(set) var phase: Phase = .idle
    private var reauthenticatedOnce = false
    private var lastOperation: Operation = .status

    /// Creates the machine (state ``VaultState/loading``).
    public init() {}

    /// Whether a request or re-authentication is running.
    public var isBusy: Bool { phase != .idle }

    /// The user (or the screen appearing) asks for the status.
    public mutating func refresh() -> Effect {
        start(.status)
    }

    /// The user asks for a sync.
    public mutating func sync() -> Effect {
        start(.sync)
    }

    /// The user retries after a retryable error: the failed action runs again.
    public mutating func retry() -> Effect {
        guard case .error(_, true) = state else { return .none }
        return start(lastOperation)
    }

    /// The server answered the status.
    public mutating func statusReceived(_ status: VaultStatus) -> Effect {
        guard phase == .running(.status) else { return .none }
        phase = .idle
        state = Self.state(for: status)
        return .none
    }

    /// The sync succeeded: read the status it changed.
    public mutating func syncCompleted(_ result: VaultSyncResult) -> Effect {
        guard phase == .running(.sync) else { return .none }
        phase = .running(.status)
        return .fetchStatus
    }

    /// The running request failed.
    public mutating func failed(_ error: APIError) -> Effect {
        guard case .running(let operation) = phase else { return .none }
        if Self.needsReauthentication(error) && !reauthenticatedOnce {
            reauthenticatedOnce = true
            phase = .reauthenticating(operation)
            return .reauthenticate
        }
        phase = .idle
        state = Self.state(for: error)
        return .none
    }

    /// A background refresh ran: once it reports that the member session has ended, the screen says so
    /// (whatever it showed); other outcomes change nothing here (the next ``refresh()`` shows them).
    public mutating func backgroundRefreshed(_ outcome: VaultRefreshOutcome) -> Effect {
        if case .signInRequired = outcome {
            phase = .idle
            state = .signInRequired
        }
        return .none
    }

    /// The vault session was renewed: repeat the request.
    public mutating func reauthenticated() -> Effect {
        guard case .reauthenticating(let operation) = phase else { return .none }
        phase = .running(operation)
        return operation.effect
    }

    /// Renewing the vault session failed (no password, wrong password, network, …).
    public mutating func reauthenticationFailed(_ error: APIError) -> Effect {
        guard case .reauthenticating = phase else { return .none }
        phase = .idle
        if Self.needsReauthentication(error) || error.code == .invalidCredentials {
            state = .error(message: "Unlock your vault to see its status.", retryable: false)
        } else {
            state = Self.state(for: error)
        }
        return .none
    }

    private mutating func start(_ operation: Operation) -> Effect {
        guard phase == .idle else { return .none }
        lastOperation = operation
        reauthenticatedOnce = false
        phase = .running(operation)
        state = .loading
        return operation.effect
    }

    static func needsReauthentication(_ error: APIError) -> Bool {
        error.code == .invalidToken || error.code == .reauthenticationRequired
    }

    /// The state for a status answer.
    static func state(for status: VaultStatus) -> VaultState {
        switch status.status {
        case .notEnrolled: return .notEnrolled
        case .pending: return .pending
        case .enrolled: return .enrolled(status)
        case .active: return .active(status)
        case .error: return .error(message: status.errorMessage ?? "The vault reported an error.", retryable: true)
        default:
            return .error(
                message:
                    "The server reported a vault status this app does not know ('\(status.status)'). Update the app.",
                retryable: false)
        }
    }

    /// The state for a failure.
    static func state(for error: APIError) -> VaultState {
        switch error.code {
        case .notEnrolled:
            return .notEnrolled
        case .signInRequired:
            return .signInRequired
        case .invalidToken, .reauthenticationRequired:
            return .error(message: "Your vault session has expired. Unlock your vault again.", retryable: false)
        case .networkError:
            return .error(message: "Cannot reach the server. Check your connection.", retryable: true)
        case .rateLimited:
            return .error(message: "Too many requests. Try again later.", retryable: true)
        case .invalidResponse:
            return .error(message: "The server sent a vault status this app does not understand.", retryable: false)
        default:
            if (error.status ?? 0) >= 500 {
                return .error(message: "The server had a problem. Try again.", retryable: true)
            }
            return .error(message: "The vault status could not be loaded: \(error.description)", retryable: false)
        }
    }
}
