// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// X25519 key pairs used as one-time transaction keys.

public import Crypto
public import VettIDCore

/// A one-time X25519 transaction key held by the server, with its id.
public struct TransactionKeyPair: Sendable, CustomStringConvertible {
    /// The key id (sent to the client with the public key, echoed in ``EncryptedPayload/keyID``).
    public let keyID: String
    /// The private key. Keep it encrypted at rest and delete it after one ``TransactionKeyEnvelope/open(_:context:privateKey:aad:)``.
    public let privateKey: Curve25519.KeyAgreement.PrivateKey

    /// Wraps an existing private key.
    public init(keyID: String, privateKey: Curve25519.KeyAgreement.PrivateKey) {
        self.keyID = keyID
        self.privateKey = privateKey
    }

    /// Restores a key pair from its 32-byte raw private key.
    public init(keyID: String, privateKeyRawRepresentation: [UInt8]) throws(TransactionKeyEnvelopeError) {
        do {
            self.init(
                keyID: keyID,
                privateKey: try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: privateKeyRawRepresentation))
        } catch {
            throw TransactionKeyEnvelopeError(.invalidKey, "an X25519 private key is 32 bytes")
        }
    }

    /// A fresh random key pair; the id defaults to 128 random bits in base64url.
    public static func generate(keyID: String? = nil) -> TransactionKeyPair {
        var generator = SystemRandomNumberGenerator()
        let id = keyID ?? Base64URL.encode((0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
        return TransactionKeyPair(keyID: id, privateKey: Curve25519.KeyAgreement.PrivateKey())
    }

    /// The public key.
    public var publicKey: Curve25519.KeyAgreement.PublicKey { privateKey.publicKey }

    /// The 32-byte public key in unpadded base64url, as sent to clients.
    public var publicKeyBase64URL: String { Base64URL.encode(privateKey.publicKey.rawRepresentation) }

    /// The 32-byte raw private key, for encrypted storage. Never log it.
    public var privateKeyRawRepresentation: [UInt8] { Array(privateKey.rawRepresentation) }

    /// Parses a public key sent as unpadded base64url of 32 bytes.
    public static func publicKey(base64URL: String) throws(TransactionKeyEnvelopeError)
        -> Curve25519.KeyAgreement.PublicKey
    {
        guard let bytes = Base64URL.decode(base64URL), bytes.count == 32,
            let key = try? Curve25519.KeyAgreement.PublicKey(rawRepresentation: bytes)
        else { throw TransactionKeyEnvelopeError(.invalidKey, "an X25519 public key is 32 bytes of base64url") }
        return key
    }

    /// Shows only the key id.
    public var description: String { "TransactionKeyPair(keyID: \(keyID))" }
}
