// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// One suite the app offers, with its ephemeral public key.

/// A suite offered in a ``SessionInit`` and the app's ephemeral public key for it.
public struct SessionOffer: Sendable, Hashable {
    /// The offered suite.
    public let suite: SessionSuite
    /// The ephemeral public key (32 bytes for X25519, 1216 for X-Wing).
    public let ephemeralPublicKey: [UInt8]

    /// An offer of `suite` with `ephemeralPublicKey`.
    public init(suite: SessionSuite, ephemeralPublicKey: [UInt8]) {
        self.suite = suite
        self.ephemeralPublicKey = ephemeralPublicKey
    }

    /// The offer of an ephemeral key.
    public init(_ key: SessionEphemeralKey) {
        self.init(suite: key.suite, ephemeralPublicKey: key.publicKey)
    }
}
