import Crypto
import Foundation
import VettIDCrypto

/// Encrypts secrets at rest (transaction private keys, credential keys) under a key derived from the master key.
///
/// ChaCha20-Poly1305 with a random nonce; the additional data names what the secret is and whose it is, so a
/// sealed value copied to another row (another key id, another credential, another version) does not open.
/// The text form is unpadded base64url of `nonce ‖ ciphertext ‖ tag`.
struct SecretSealer: Sendable {
    let key: SymmetricKey

    init(key: SymmetricKey) { self.key = key }

    /// Seals `secret` bound to `label` (e.g. `"tx-key:<key id>"`).
    func seal(_ secret: some ContiguousBytes, label: String) throws -> String {
        let box = try ChaChaPoly.seal(
            secret.withUnsafeBytes { Data($0) }, using: key, authenticating: Data(label.utf8))
        return Base64URL.encode(box.combined)
    }

    /// Opens a value sealed with the same `label`; `nil` when it was tampered with or belongs elsewhere.
    func open(_ sealed: String, label: String) -> [UInt8]? {
        guard let bytes = Base64URL.decode(sealed), let box = try? ChaChaPoly.SealedBox(combined: bytes),
            let plaintext = try? ChaChaPoly.open(box, using: key, authenticating: Data(label.utf8))
        else { return nil }
        return Array(plaintext)
    }
}
