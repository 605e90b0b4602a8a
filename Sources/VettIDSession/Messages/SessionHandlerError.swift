// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCore

// The error a sealed response carries: a handler's refusal, or a session check made after admission.

/// The family of ``SessionHandlerError``.
public enum SessionHandlerErrorDomain: ErrorDomain {}

/// The `error` of a failed sealed response: `{"code","message"}`.
///
/// The code set is open and belongs to the handlers (`unknown_handler`, a secret store's codes, …) plus the session
/// checks the vault makes after admitting a request (`out_of_order`, `malformed_message`, `request_expired`).
public typealias SessionHandlerError = DomainError<SessionHandlerErrorDomain>

extension SessionHandlerError {
    /// The same code and message as a session check's error.
    public init(_ error: SessionError) {
        self.init(Code(rawValue: error.code.rawValue), error.message)
    }
}
