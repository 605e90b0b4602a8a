// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// The wire form of a transaction-key envelope.

/// An HPKE ciphertext on the wire: `{"key_id": …, "enc": …, "ciphertext": …}`.
///
/// `enc` is the 32-byte X25519 encapsulated key and `ciphertext` the ChaCha20-Poly1305 output (with its
/// 16-byte tag), both unpadded base64url.
public struct EncryptedPayload: Sendable, Hashable, Codable {
    /// The transaction key the payload is encrypted to.
    public var keyID: String
    /// The encapsulated key, unpadded base64url.
    public var enc: String
    /// The ciphertext with its tag, unpadded base64url.
    public var ciphertext: String

    /// Creates a payload from its wire strings.
    public init(keyID: String, enc: String, ciphertext: String) {
        self.keyID = keyID
        self.enc = enc
        self.ciphertext = ciphertext
    }

    /// Creates a payload from raw bytes.
    public init(keyID: String, encapsulatedKey: [UInt8], ciphertext: [UInt8]) {
        self.init(keyID: keyID, enc: Base64URL.encode(encapsulatedKey), ciphertext: Base64URL.encode(ciphertext))
    }

    enum CodingKeys: String, CodingKey {
        case keyID = "key_id"
        case enc
        case ciphertext
    }
}
