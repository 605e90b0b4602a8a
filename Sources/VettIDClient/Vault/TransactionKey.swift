// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import VettIDCore
public import VettIDCrypto

/// A one-time X25519 public key of the server: the device seals a password to it
/// (``sealPassword(_:purpose:contextID:)``).
///
/// Stored as it travels: `{"key_id", "public_key" (base64url of 32 bytes), "algorithm": "X25519"}`.
public struct TransactionKey: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The key id the server opens with.
    public var keyID: String
    /// The 32-byte X25519 public key, unpadded base64url.
    public var publicKey: String
    /// Always `X25519` today.
    public var algorithm: String

    /// Creates a key from its wire fields.
    public init(keyID: String, publicKey: String, algorithm: String = "X25519") {
        self.keyID = keyID
        self.publicKey = publicKey
        self.algorithm = algorithm
    }

    /// Whether the key is an X25519 key of 32 bytes in base64url.
    public var isValid: Bool {
        guard algorithm == "X25519", !keyID.isEmpty else { return false }
        return (try? TransactionKeyPair.publicKey(base64URL: publicKey)) != nil
    }

    /// Shows the id only.
    public var description: String { "TransactionKey(\(keyID))" }

    /// Seals a password (its UTF-8 bytes) to this key: HPKE base mode, `info` =
    /// `TransactionKeyContext` (`purpose`, `contextID`, this key's id; module `VettIDCrypto`), empty AAD.
    /// - Parameters:
    ///   - password: The password; only the returned envelope leaves the device.
    ///   - purpose: `.enrollmentPassword` or `.authenticationPassword`.
    ///   - contextID: The enrollment session id or the action id.
    /// - Throws: ``APIError`` `encryption_failed` (bad key), `invalid_response` (unknown algorithm).
    public func sealPassword(_ password: String, purpose: TransactionKeyPurpose, contextID: String) throws(APIError)
        -> EncryptedPayload
    {
        guard algorithm == "X25519" else {
            throw APIError(
                code: .invalidResponse, description: "The transaction key uses an unknown algorithm '\(algorithm)'.")
        }
        do {
            let key = try TransactionKeyPair.publicKey(base64URL: publicKey)
            let context = TransactionKeyContext(purpose: purpose, contextID: contextID, keyID: keyID)
            return try TransactionKeyEnvelope.seal(Array(password.utf8), to: key, context: context)
        } catch {
            throw APIError(
                code: .encryptionFailed, description: "The password could not be sealed to the transaction key.",
                underlying: error)
        }
    }

    enum CodingKeys: String, CodingKey {
        case keyID = "key_id"
        case publicKey = "public_key"
        case algorithm
    }
}
