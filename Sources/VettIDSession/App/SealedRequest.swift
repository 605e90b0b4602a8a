// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// A request the app sealed: what it publishes, and what it needs to open the answer.

/// A sealed request: publish ``envelope`` on `OwnerSpace.{guid}.forVault.sealed` with the app's inbox as reply
/// subject, then open the answer with ``SealedSessionClient/openResponse(_:to:)``.
public struct SealedRequest: Sendable, Hashable {
    /// The sequence number the request was sealed with; the response carries the same.
    public let sequence: UInt64
    /// The inner request's id; the response echoes it.
    public let id: String
    /// The envelope's bytes.
    public let envelope: [UInt8]

    init(sequence: UInt64, id: String, envelope: [UInt8]) {
        self.sequence = sequence
        self.id = id
        self.envelope = envelope
    }
}
