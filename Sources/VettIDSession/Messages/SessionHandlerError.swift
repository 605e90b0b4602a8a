// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCore

// The error a sealed response carries: a handler's refusal, or a session check made after admission.

/// The `error` of a failed sealed response: `{"code","message"}`.
///
/// The code set is open and belongs to the handlers (`unknown_handler`, a secret store's codes, …) plus the session
/// checks the vault makes after admitting a request (`out_of_order`, `malformed_message`, `request_expired`).
public struct SessionHandlerError: CodedError, Hashable {
    /// An open set of codes.
    public struct Code: ErrorCode {
        /// The stable name of the code.
        public let rawValue: String
        /// Wraps a stable name.
        public init(rawValue: String) { self.rawValue = rawValue }
    }

    /// What went wrong, as the vault named it.
    public var code: Code
    /// Detail for people.
    public var message: String

    /// An error with `code` and `message`.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The same code and message as a session check's error.
    public init(_ error: SessionError) {
        self.init(Code(rawValue: error.code.rawValue), error.message)
    }
}
