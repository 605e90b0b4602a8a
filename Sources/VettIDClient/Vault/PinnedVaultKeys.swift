// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Crypto
import VettIDCore
public import VettIDCrypto

// The vault identity keys the app trusts to sign sealed-session handshakes, kept with the credential.

/// The vault identity keys the app pins for sealed sessions (docs/protocol.md §7.3): every key the server's ring
/// may sign a handshake with, by kid, and the kid signing now.
///
/// The SDK gets the set in the enrollment finalize answer and stores it with the ``VaultCredential``; it fetches it
/// again over the DPoP-bound API (``VaultService/refreshPinnedVaultKeys()``) when a handshake names a kid it has not
/// pinned, or once for a credential stored before sets existed.
public struct PinnedVaultKeys: Sendable, Hashable, Codable, CustomStringConvertible {
    /// One pinned key: a kid and a P-256 public key.
    public struct Key: Sendable, Hashable {
        /// The key's id.
        public let kid: String
        /// The public key.
        public let jwk: P256PublicJWK

        /// Parses a JWK's members strictly: `kty` `EC`, `crv` `P-256`, `alg` `ES256`, `x` and `y` 43 characters of
        /// unpadded base64url of 32 bytes forming a point on P-256, `kid` 1 to 255 bytes.
        /// - Throws: ``PinnedVaultKeyError``.
        public init(kid: String, kty: String, crv: String, alg: String, x: String, y: String)
            throws(PinnedVaultKeyError)
        {
            guard !kid.isEmpty, kid.utf8.count <= 255 else {
                throw PinnedVaultKeyError(.invalidKeyID, "a vault key id is 1 to 255 bytes")
            }
            guard kty == "EC" else { throw PinnedVaultKeyError(.unsupportedKeyType, "kty must be EC") }
            guard crv == "P-256" else { throw PinnedVaultKeyError(.unsupportedCurve, "crv must be P-256") }
            guard alg == "ES256" else { throw PinnedVaultKeyError(.unsupportedAlgorithm, "alg must be ES256") }
            guard x.utf8.count == 43, y.utf8.count == 43 else {
                throw PinnedVaultKeyError(.invalidPoint, "x and y are 43 characters of unpadded base64url")
            }
            do {
                self.jwk = try P256PublicJWK(x: x, y: y)
            } catch {
                throw PinnedVaultKeyError(.invalidPoint, "x and y are not a point on P-256")
            }
            self.kid = kid
        }

        /// Pins `publicKey` under `kid` (tests, and a vault key known out of band).
        public init(kid: String, publicKey: P256.Signing.PublicKey) throws(PinnedVaultKeyError) {
            let jwk = P256PublicJWK(publicKey: publicKey)
            try self.init(kid: kid, kty: "EC", crv: "P-256", alg: "ES256", x: jwk.x, y: jwk.y)
        }
    }

    /// The most keys a set holds.
    public static let maxKeys = 64

    /// The keys, in the server's order.
    public let keys: [Key]
    /// The kid of the key that signs handshakes now; one of ``keys``.
    public let currentKID: String

    /// A set of `keys` whose current one is `currentKID`.
    /// - Throws: ``PinnedVaultKeyError`` `invalid_key_set` (no key, more than 64, `currentKID` not among them),
    ///   `invalid_key_id` (a kid twice).
    public init(keys: [Key], currentKID: String) throws(PinnedVaultKeyError) {
        guard (1...Self.maxKeys).contains(keys.count) else {
            throw PinnedVaultKeyError(.invalidKeySet, "a vault key set has 1 to \(Self.maxKeys) keys")
        }
        guard Set(keys.map(\.kid)).count == keys.count else {
            throw PinnedVaultKeyError(.invalidKeyID, "a vault key id appears twice")
        }
        guard keys.contains(where: { $0.kid == currentKID }) else {
            throw PinnedVaultKeyError(.invalidKeySet, "current_kid is not one of the keys")
        }
        self.keys = keys
        self.currentKID = currentKID
    }

    /// The public keys by kid, as `PendingSessionHandshake.complete(response:pinnedVaultKeys:)` takes them.
    public var publicKeys: [String: P256.Signing.PublicKey] {
        Dictionary(keys.map { ($0.kid, $0.jwk.publicKey) }, uniquingKeysWith: { first, _ in first })
    }

    /// The kids and the current one; never key material beyond that.
    public var description: String {
        "PinnedVaultKeys(\(keys.map(\.kid).joined(separator: ", ")); current \(currentKID))"
    }

    enum CodingKeys: String, CodingKey {
        case keys
        case currentKID = "current_kid"
    }

    struct StoredKey: Codable {
        let kid: String
        let kty: String
        let crv: String
        let alg: String
        let x: String
        let y: String
    }

    /// Decodes a stored set, with the same checks as parsing one from the server.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let stored = try container.decode([StoredKey].self, forKey: .keys)
        var keys: [Key] = []
        for key in stored {
            keys.append(try Key(kid: key.kid, kty: key.kty, crv: key.crv, alg: key.alg, x: key.x, y: key.y))
        }
        try self.init(keys: keys, currentKID: try container.decode(String.self, forKey: .currentKID))
    }

    /// Encodes the set as the API spells it (`keys` of JWKs with `kid` and `alg`, `current_kid`).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(
            keys.map { StoredKey(kid: $0.kid, kty: "EC", crv: "P-256", alg: "ES256", x: $0.jwk.x, y: $0.jwk.y) },
            forKey: .keys)
        try container.encode(currentKID, forKey: .currentKID)
    }
}
