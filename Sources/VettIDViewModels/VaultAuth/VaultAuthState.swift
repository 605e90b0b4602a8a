// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// Which step of a vault authentication is running.
public enum VaultAuthProgress: Sendable, Equatable {
    /// Asking for an action and checking the server's LAT.
    case verifyingServer
    /// Sending the sealed password.
    case sendingPassword
}

/// Why a vault authentication failed, in words for the screen.
public struct VaultAuthFailure: Sendable, Equatable {
    /// The message to show.
    public var message: String
    /// Whether trying again unchanged can succeed (network trouble, rate limit, server error).
    public var retryable: Bool
    /// The error code (for analytics; never shown).
    public var code: String

    /// Creates a failure.
    public init(message: String, retryable: Bool, code: String) {
        self.message = message
        self.retryable = retryable
        self.code = code
    }
}

/// Where the vault unlock screen is.
public enum VaultAuthState: Sendable, Equatable {
    /// Waiting for the password.
    case idle
    /// A request is running.
    case authenticating(VaultAuthProgress)
    /// Unlocked; the rotated credential is stored.
    case authenticated(userGUID: String)
    /// The last attempt failed.
    case failed(VaultAuthFailure)
}
