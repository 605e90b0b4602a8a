// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import Foundation
import VettIDCrypto

/// One member's data key: what seals the member's secrets and profile at rest (docs/security.md, "Member data at
/// rest"). It is random per member and stored only sealed under the at-rest key ring (``VaultDataKeyRepository``),
/// so rotating the ring re-wraps it without touching the data.
///
/// Values are ChaCha20-Poly1305 with a random nonce, the additional data naming what the value is, whose, and which
/// version, so a value copied to another row does not open. Secret names are stored as an HMAC under a key derived
/// from the data key (`name_id`), never in the clear.
struct VaultDataKey: Sendable {
    private let key: SymmetricKey
    private let nameKey: SymmetricKey

    /// A data key from its 32 bytes.
    init(bytes: some ContiguousBytes) {
        key = SymmetricKey(data: bytes)
        nameKey = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: key, info: Array("vettid/vault-secret-name".utf8), outputByteCount: 32)
    }

    /// The bytes of a new random data key.
    static func generateBytes() -> [UInt8] {
        SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }
    }

    /// The stored id of a secret name: lowercase hex of HMAC-SHA256 under the name key.
    func nameID(_ name: String) -> String {
        Hex.encode(Array(HMAC<SHA256>.authenticationCode(for: Array(name.utf8), using: nameKey)))
    }

    /// `bytes` sealed bound to `label`: unpadded base64url of `nonce ‖ ciphertext ‖ tag`.
    func seal(_ bytes: [UInt8], label: String) throws -> String {
        Base64URL.encode(try ChaChaPoly.seal(bytes, using: key, authenticating: Array(label.utf8)).combined)
    }

    /// Opens a value sealed with the same `label`; `nil` when it was altered or belongs elsewhere.
    func open(_ sealed: String, label: String) -> [UInt8]? {
        guard let combined = Base64URL.decode(sealed), let box = try? ChaChaPoly.SealedBox(combined: combined),
            let plaintext = try? ChaChaPoly.open(box, using: key, authenticating: Array(label.utf8))
        else { return nil }
        return Array(plaintext)
    }
}
