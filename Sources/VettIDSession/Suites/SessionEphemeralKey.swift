// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCore

// The app's ephemeral HPKE key of one offer: made for one handshake, dropped when it completes.

/// An ephemeral HPKE private key the app offers with one suite.
///
/// It is kept as its 32-byte seed (the X25519 scalar, or the X-Wing seed of draft-connolly-cfrg-xwing-kem), so the
/// type exists on every platform even where X-Wing does not. It never leaves the process and is never stored.
public struct SessionEphemeralKey: Sendable, CustomStringConvertible {
    /// The suite the key belongs to.
    public let suite: SessionSuite
    /// The public key sent in the offer (32 bytes for X25519, 1216 for X-Wing).
    public let publicKey: [UInt8]
    private let privateKey: SessionKEM.PrivateKey

    /// The key of `suite` whose private half is `seed` (32 bytes).
    /// - Throws: `no_common_suite` for a suite this platform cannot run, `handshake_failed` for a bad seed.
    public init(suite: SessionSuite, seed: [UInt8]) throws(SessionError) {
        guard seed.count == 32 else { throw SessionError(.handshakeFailed, "an ephemeral key seed is 32 bytes") }
        self.suite = suite
        (privateKey, publicKey) = try SessionKEM.privateKey(suite: suite, seed: seed)
    }

    /// A fresh key of `suite` from 32 bytes of `random`.
    public static func generate(suite: SessionSuite, random: some SessionRandom) throws(SessionError)
        -> SessionEphemeralKey
    {
        try SessionEphemeralKey(suite: suite, seed: random.bytes(32))
    }

    /// Decapsulates the vault's `enc` and exports the 32-byte session secret (HPKE `SetupBaseR` + `Export`).
    func exportSecret(enc: [UInt8], info: [UInt8]) throws(SessionError) -> [UInt8] {
        try SessionKEM.decapsulate(privateKey, enc: enc, info: info)
    }

    /// Names the suite only, never key material.
    public var description: String { "SessionEphemeralKey(\(suite))" }
}
