// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDClient
import VettIDCore

/// The pure logic of the messaging setup screen: create the account (409 `account_exists` is fine), issue a
/// token, connect, read the status. Tested without a network.
public struct NatsSetupStateMachine: Sendable {
    /// What the view model must do next.
    public enum Effect: Sendable, Equatable {
        /// Nothing.
        case none
        /// Create the NATS account, then report ``accountCreated()`` or ``failed(_:)``.
        case createAccount
        /// Issue an app token, then report ``tokenIssued(_:)`` or ``failed(_:)``.
        case generateToken
        /// Connect with the credentials, then report ``connected()`` or ``connectionFailed(_:)``.
        case connect(NatsCredentials)
        /// Read the NATS status, then report ``statusReceived(_:)`` or ``failed(_:)``.
        case fetchStatus
    }

    /// The current state.
    public private(set) var state: NatsSetupState = .initial

    /// Creates the machine (``NatsSetupState/initial``).
    public init() {}

    /// Whether a step is running.
    public var isBusy: Bool {
        switch state {
        case .creatingAccount, .generatingToken, .connecting: true
        default: false
        }
    }

    /// The user starts the setup (from ``NatsSetupState/initial``, an error, or again once connected).
    public mutating func start() -> Effect {
        guard !isBusy else { return .none }
        state = .creatingAccount
        return .createAccount
    }

    /// Retry after an error.
    public mutating func retry() -> Effect {
        guard case .error = state else { return .none }
        return start()
    }

    /// The account was created.
    public mutating func accountCreated() -> Effect {
        guard state == .creatingAccount else { return .none }
        state = .generatingToken
        return .generateToken
    }

    /// A token was issued.
    public mutating func tokenIssued(_ credentials: NatsCredentials) -> Effect {
        guard state == .generatingToken else { return .none }
        state = .connecting
        return .connect(credentials)
    }

    /// The connection is up.
    public mutating func connected() -> Effect {
        guard state == .connecting else { return .none }
        return .fetchStatus
    }

    /// Connecting failed.
    public mutating func connectionFailed(_ message: String) -> Effect {
        guard state == .connecting else { return .none }
        state = .error(message: "Cannot connect to messaging: \(message)")
        return .none
    }

    /// The status arrived: setup is done.
    public mutating func statusReceived(_ status: NatsStatus) -> Effect {
        guard state == .connecting else { return .none }
        state = .connected(status)
        return .none
    }

    /// The running HTTP step failed. `account_exists` while creating the account is not a failure: the token
    /// is issued next.
    public mutating func failed(_ error: APIError) -> Effect {
        switch state {
        case .creatingAccount where error.code == .accountExists:
            state = .generatingToken
            return .generateToken
        case .creatingAccount, .generatingToken, .connecting:
            state = error.code == .signInRequired ? .signInRequired : .error(message: Self.message(for: error))
            return .none
        default:
            return .none
        }
    }

    /// A background token refresh ran: once it reports that the member session has ended, the screen says so.
    public mutating func backgroundRefreshed(_ outcome: NatsRefreshOutcome) -> Effect {
        if case .signInRequired = outcome { state = .signInRequired }
        return .none
    }

    /// The text shown for a failed step.
    static func message(for error: APIError) -> String {
        switch error.code {
        case .natsNotConfigured:
            return "Messaging is not available on this server."
        case .natsUnavailable:
            return "The messaging server is unavailable. Try again later."
        case .notFound:
            return "Your messaging account does not exist yet. Try again."
        case .invalidToken, .reauthenticationRequired:
            return "Your vault session has expired. Unlock your vault again."
        case .networkError:
            return "Cannot reach the server. Check your connection."
        case .rateLimited:
            return "Too many requests. Try again later."
        default:
            if (error.status ?? 0) >= 500 { return "The server had a problem. Try again." }
            return "Messaging could not be set up: \(error.description)"
        }
    }
}
