// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// What the vault has once it accepted an init: the response to send and the session to keep.

/// The outcome of ``SessionResponder/accept(_:identity:)``: publish ``responseBytes`` on the init's reply subject
/// and insert ``session`` in the ``SealedSessionTable``.
public struct SessionAcceptance: Sendable {
    /// The signed handshake response.
    public let responseBytes: [UInt8]
    /// The established session (keys, member, device, suite, limits).
    public let session: SealedSession
}
