// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// Why a sign-in or registration attempt failed, in words for the screen.
public struct SignInFailure: Sendable, Equatable {
    /// The message to show.
    public var message: String
    /// Whether trying again unchanged can succeed (network trouble, rate limit, server error).
    public var retryable: Bool
    /// The server's error code, if any (for analytics; never shown).
    public var code: String?

    /// Creates a failure.
    public init(message: String, retryable: Bool, code: String? = nil) {
        self.message = message
        self.retryable = retryable
        self.code = code
    }
}
