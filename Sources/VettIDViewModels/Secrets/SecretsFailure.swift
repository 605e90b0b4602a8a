// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// Why a request of the secrets screen failed, in words for the screen.
public struct SecretsFailure: Sendable, Hashable {
    /// The request that failed; ``SecretsStateMachine/retry()`` sends it again when ``retryable``.
    public var operation: SecretsOperation
    /// The message to show.
    public var message: String
    /// Whether sending the same request again can succeed (the vault could not be reached).
    public var retryable: Bool
    /// The error code (for analytics; never shown).
    public var code: String

    /// Creates a failure.
    public init(operation: SecretsOperation, message: String, retryable: Bool, code: String) {
        self.operation = operation
        self.message = message
        self.retryable = retryable
        self.code = code
    }
}
