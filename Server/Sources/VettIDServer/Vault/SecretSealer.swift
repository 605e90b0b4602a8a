// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import Foundation
import VettIDCrypto

/// Encrypts secrets at rest (transaction private keys, credential keys) under the current generation of the
/// at-rest keys (``SealingKeys``) for one purpose.
///
/// ChaCha20-Poly1305 with a random nonce; the additional data names what the secret is and whose it is, so a
/// sealed value copied to another row (another key id, another credential, another version) does not open.
/// The text form is unpadded base64url of `nonce ‖ ciphertext ‖ tag`, prefixed with `g<generation>.` for every
/// generation after the first (base64url has no `.`, so a value without a prefix is generation 1, the form
/// servers wrote before rotation existed).
struct SecretSealer: Sendable {
    let keys: SealingKeys
    let purpose: String

    init(keys: SealingKeys, purpose: String) {
        self.keys = keys
        self.purpose = purpose
    }

    /// Seals `secret` bound to `label` (e.g. `"tx-key:<key id>"`) under the current generation.
    func seal(_ secret: some ContiguousBytes, label: String) throws -> String {
        let (generation, key) = keys.current(purpose)
        let box = try ChaChaPoly.seal(
            secret.withUnsafeBytes { Data($0) }, using: key, authenticating: Data(label.utf8))
        let text = Base64URL.encode(box.combined)
        return generation == 1 ? text : "g\(generation).\(text)"
    }

    /// Opens a value sealed with the same `label`; `nil` when it was tampered with, belongs elsewhere, or was
    /// sealed under a generation the ring no longer holds.
    func open(_ sealed: String, label: String) -> [UInt8]? {
        guard let (generation, text) = Self.split(sealed), let key = keys.key(purpose, generation: generation),
            let bytes = Base64URL.decode(text), let box = try? ChaChaPoly.SealedBox(combined: bytes),
            let plaintext = try? ChaChaPoly.open(box, using: key, authenticating: Data(label.utf8))
        else { return nil }
        return Array(plaintext)
    }

    /// The generation a sealed value names and its base64url body; `nil` for a malformed prefix.
    static func split(_ sealed: String) -> (generation: Int, body: Substring)? {
        guard let dot = sealed.firstIndex(of: ".") else { return (1, sealed[...]) }
        let prefix = sealed[..<dot]
        guard prefix.first == "g", let generation = Int(prefix.dropFirst()), generation >= 2 else { return nil }
        return (generation, sealed[sealed.index(after: dot)...])
    }
}
