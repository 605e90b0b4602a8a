// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import Foundation
import VettIDCrypto

/// What the sealed credential (the blob the device keeps but cannot read) contains.
///
/// The server holds only the per-credential key that seals it (itself sealed under the master key) and its
/// version; the password's Argon2id PHC string lives in the blob, on the device. A blob opens only under the
/// key of its own credential id and version (both are in the additional data), so an old blob (after a
/// rotation), a blob from another credential or a modified blob does not open.
struct CredentialContents: Codable, Sendable, Equatable {
    /// Argon2id PHC string of the vault password.
    var passwordPHC: String
    var userGUID: String
    var credentialID: String
    var version: Int64
    /// Failed authentications that lock the credential.
    var maxFailedAttempts: Int
    var createdAt: Int64
    var updatedAt: Int64

    enum CodingKeys: String, CodingKey {
        case passwordPHC = "password_phc"
        case userGUID = "user_guid"
        case credentialID = "credential_id"
        case version
        case maxFailedAttempts = "max_failed_attempts"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    private static func label(credentialID: String, version: Int64) -> Data {
        Data("vettid-credential/v1:\(credentialID):\(version)".utf8)
    }

    /// Seals the contents under `key` (ChaCha20-Poly1305, random nonce); base64url text.
    func seal(with key: SymmetricKey) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let box = try ChaChaPoly.seal(
            try encoder.encode(self), using: key,
            authenticating: Self.label(credentialID: credentialID, version: version))
        return Base64URL.encode(box.combined)
    }

    /// Opens a blob that must belong to `credentialID` at `version`; `nil` for anything else.
    static func open(_ sealed: String, with key: SymmetricKey, credentialID: String, version: Int64)
        -> CredentialContents?
    {
        guard let bytes = Base64URL.decode(sealed), bytes.count <= 8_192,
            let box = try? ChaChaPoly.SealedBox(combined: bytes),
            let plaintext = try? ChaChaPoly.open(
                box, using: key, authenticating: label(credentialID: credentialID, version: version)),
            let contents = try? JSONDecoder().decode(CredentialContents.self, from: plaintext),
            contents.credentialID == credentialID, contents.version == version
        else { return nil }
        return contents
    }
}
