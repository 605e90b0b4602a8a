// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// One message the vault worker publishes.

/// A message to publish: its subject and its bytes.
public struct VaultPublication: Sendable, Hashable {
    /// Where to publish.
    public let subject: String
    /// The payload (a serialized `VaultResponse`).
    public let payload: [UInt8]

    public init(subject: String, payload: [UInt8]) {
        self.subject = subject
        self.payload = payload
    }
}
