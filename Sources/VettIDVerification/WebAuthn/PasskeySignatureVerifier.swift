// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import CryptoExtras
import Foundation
import VettIDAttestation
import VettIDCore

/// A credential public key turned into a signature verifier: ES256 (DER signatures), EdDSA on Ed25519, and
/// RS256 (PKCS #1 v1.5, moduli of 2,048 bits or more).
struct PasskeySignatureVerifier: Sendable {
    private enum Key: Sendable {
        case p256(P256.Signing.PublicKey)
        case ed25519(Curve25519.Signing.PublicKey)
        case rsa(_RSA.Signing.PublicKey)
    }

    private let key: Key

    /// Builds the verifier; a point off the curve or an RSA modulus shorter than 2,048 bits is refused.
    /// - Throws: `WebAuthnError` `malformed_public_key`.
    init(_ coseKey: COSEKey) throws(WebAuthnError) {
        do {
            switch coseKey {
            case .p256(let x, let y):
                key = .p256(try P256.Signing.PublicKey(x963Representation: [0x04] + x + y))
            case .ed25519(let x):
                key = .ed25519(try Curve25519.Signing.PublicKey(rawRepresentation: x))
            case .rsa(let n, let e):
                key = .rsa(try _RSA.Signing.PublicKey(n: n, e: e))
            }
        } catch {
            throw WebAuthnError(.malformedPublicKey, "the \(coseKey.algorithm) public key is not a valid key")
        }
    }

    /// Whether `signature` is this key's signature over `data`.
    func isValid(_ signature: [UInt8], for data: [UInt8]) -> Bool {
        switch key {
        case .p256(let key):
            guard let signature = try? P256.Signing.ECDSASignature(derRepresentation: signature) else { return false }
            return key.isValidSignature(signature, for: data)
        case .ed25519(let key):
            return key.isValidSignature(signature, for: data)
        case .rsa(let key):
            return key.isValidSignature(
                _RSA.Signing.RSASignature(rawRepresentation: signature), for: data, padding: .insecurePKCS1v1_5)
        }
    }
}
