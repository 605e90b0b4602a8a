// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Crypto
public import VettIDCore

// The key the vault signs handshake responses with: one key of the server's identity key ring.

/// A vault identity key: a P-256 signing key and the kid apps pin it under.
///
/// The server keeps a ring of them (a current key and older ones still pinned by enrolled devices) and passes the
/// one to sign with to ``SessionResponder/accept(_:identity:)``: the kid the init expects when the ring still has
/// it, else the current one (the app then refreshes its pinned set over the DPoP-bound API).
public struct VaultIdentityKey: Sendable, CustomStringConvertible {
    /// The kid, 1 to 255 bytes of UTF-8.
    public let kid: String
    let privateKey: P256.Signing.PrivateKey

    /// Wraps a private key under `kid`.
    /// - Throws: `handshake_failed` when the kid is empty or longer than 255 bytes.
    public init(kid: String, privateKey: P256.Signing.PrivateKey) throws(SessionError) {
        guard UTF8Field.isValid(kid) else {
            throw SessionError(.handshakeFailed, "a vault key id is 1 to 255 bytes")
        }
        self.kid = kid
        self.privateKey = privateKey
    }

    /// The public half, as apps pin it.
    public var publicKey: P256.Signing.PublicKey { privateKey.publicKey }

    /// The kid only.
    public var description: String { "VaultIdentityKey(\(kid))" }
}
