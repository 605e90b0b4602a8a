// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// What the vault does with a request envelope.

/// The outcome of ``SealedSessionTable/open(_:memberGUID:)``.
public enum SealedRequestOutcome: Sendable {
    /// Admitted: run the handler and answer through the request's seal methods.
    case admitted(AdmittedSessionRequest)
    /// Refused: publish `reply` on the reply subject as is. It is sealed (`sealed`) for a refusal after admission
    /// (`out_of_order`, `malformed_message`, `request_expired`), and a plaintext ``SessionRefusal`` otherwise.
    case refused(SessionError, reply: [UInt8], sealed: Bool)
}
