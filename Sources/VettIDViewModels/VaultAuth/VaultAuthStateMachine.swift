// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDClient
import VettIDCore

/// The pure logic of the vault unlock screen: events in, a new ``VaultAuthState`` and an ``Effect`` out.
///
/// ``submit(password:)`` asks for an action (`VaultAuthenticator.requestAction()`, which checks the LAT); only
/// when that succeeds does ``actionReceived(_:)`` return the effect that sends the password
/// (`VaultAuthenticator.execute(_:password:)`). A `lat_mismatch` therefore ends the attempt with the password
/// never sent. Tested without a network.
public struct VaultAuthStateMachine: Sendable {
    /// What the view model must do next.
    public enum Effect: Sendable, Equatable {
        /// Nothing.
        case none
        /// Ask for an action and compare its LAT.
        case requestAction
        /// Send the password for the checked action.
        case execute(VaultAction, password: String)
    }

    /// The current state.
    public private(set) var state: VaultAuthState = .idle
    private var pendingPassword: String?

    /// Creates the machine.
    public init() {}

    /// The member submits the password.
    public mutating func submit(password: String) -> Effect {
        switch state {
        case .idle, .failed: break
        default: return .none
        }
        guard !password.isEmpty else {
            state = .failed(
                VaultAuthFailure(message: "Enter your vault password.", retryable: false, code: "empty_password"))
            return .none
        }
        pendingPassword = password
        state = .authenticating(.verifyingServer)
        return .requestAction
    }

    /// The server issued an action whose LAT matches the stored one.
    public mutating func actionReceived(_ action: VaultAction) -> Effect {
        guard state == .authenticating(.verifyingServer), let password = pendingPassword else { return .none }
        pendingPassword = nil
        state = .authenticating(.sendingPassword)
        return .execute(action, password: password)
    }

    /// The vault accepted the password.
    public mutating func authenticated(userGUID: String) -> Effect {
        guard state == .authenticating(.sendingPassword) else { return .none }
        state = .authenticated(userGUID: userGUID)
        return .none
    }

    /// The running step failed.
    public mutating func failed(_ error: APIError) -> Effect {
        guard case .authenticating = state else { return .none }
        pendingPassword = nil
        state = .failed(Self.failure(for: error))
        return .none
    }

    /// Back to the password field (after a success, to lock again).
    public mutating func reset() -> Effect {
        pendingPassword = nil
        state = .idle
        return .none
    }

    static func failure(for error: APIError) -> VaultAuthFailure {
        let code = error.code.rawValue
        switch error.code {
        case .latMismatch:
            return VaultAuthFailure(
                message: "This server could not prove it is your vault. Your password was not sent.",
                retryable: false,
                code: code
            )
        case .invalidCredentials:
            return VaultAuthFailure(message: "Wrong password.", retryable: false, code: code)
        case .credentialLocked:
            return VaultAuthFailure(
                message: "Too many wrong passwords: your vault credential is locked.", retryable: false, code: code)
        case .notEnrolled:
            return VaultAuthFailure(
                message: "This device is not enrolled. Enroll it with an invitation first.", retryable: false,
                code: code)
        case .noTransactionKey:
            return VaultAuthFailure(
                message: "This device has no unused keys left. Sync the vault, then try again.", retryable: false,
                code: code)
        case .staleCredential:
            return VaultAuthFailure(
                message: "The credential on this device is out of date.", retryable: false, code: code)
        case .actionReplayed, .transactionKeyUsed, .sessionExpired:
            return VaultAuthFailure(message: "The request expired. Try again.", retryable: true, code: code)
        case .networkError:
            return VaultAuthFailure(
                message: "Cannot reach the server. Check your connection.", retryable: true, code: code)
        case .rateLimited:
            var message = "Too many attempts."
            if let wait = error.retryAfter {
                message += " Try again in \(max(1, wait.components.seconds)) seconds."
            } else {
                message += " Try again later."
            }
            return VaultAuthFailure(message: message, retryable: true, code: code)
        default:
            let serverSide = (error.status ?? 0) >= 500
            return VaultAuthFailure(
                message: serverSide ? "The server had a problem. Try again." : "Unlocking failed: \(error.description)",
                retryable: serverSide,
                code: code
            )
        }
    }
}
