// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// HPKE (RFC 9180) base mode envelope to a transaction key.

public import Crypto
public import VettIDCore

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Encrypts a secret (a password) to a server transaction key and opens it on the server.
///
/// HPKE base mode with `DHKEM(X25519, HKDF-SHA256), HKDF-SHA256, ChaCha20-Poly1305`; the `info` is
/// ``TransactionKeyContext/info()`` (purpose, session or action id, key id), and an optional AAD binds
/// further request data (for example the DPoP key thumbprint). Opening with another purpose, context,
/// key id, AAD or private key fails with `TransactionKeyEnvelopeError.Code.decryptionFailed`.
public enum TransactionKeyEnvelope {
    /// The HPKE cipher suite.
    public static let ciphersuite = HPKE.Ciphersuite.Curve25519_SHA256_ChachaPoly

    /// Encrypts `plaintext` to `recipientKey` (client side). Each call uses a fresh ephemeral key.
    public static func seal(
        _ plaintext: some DataProtocol,
        to recipientKey: Curve25519.KeyAgreement.PublicKey,
        context: TransactionKeyContext,
        aad: [UInt8] = []
    ) throws(TransactionKeyEnvelopeError) -> EncryptedPayload {
        let info = try context.info()
        do {
            var sender = try HPKE.Sender(recipientKey: recipientKey, ciphersuite: ciphersuite, info: Data(info))
            let ciphertext = try sender.seal(plaintext, authenticating: aad)
            return EncryptedPayload(
                keyID: context.keyID,
                encapsulatedKey: Array(sender.encapsulatedKey),
                ciphertext: Array(ciphertext)
            )
        } catch {
            throw TransactionKeyEnvelopeError(.encryptionFailed, "HPKE sealing failed")
        }
    }

    /// Opens `payload` with the transaction key's private half (server side).
    /// - Parameters:
    ///   - payload: what the client sent.
    ///   - context: the context the server expects; its ``TransactionKeyContext/keyID`` must equal the payload's.
    ///   - privateKey: the transaction key's private half.
    ///   - aad: the additional data the server expects.
    /// - Returns: the plaintext. The caller wipes or hashes it promptly and never logs it.
    public static func open(
        _ payload: EncryptedPayload,
        context: TransactionKeyContext,
        privateKey: Curve25519.KeyAgreement.PrivateKey,
        aad: [UInt8] = []
    ) throws(TransactionKeyEnvelopeError) -> [UInt8] {
        guard payload.keyID == context.keyID else {
            throw TransactionKeyEnvelopeError(.keyIDMismatch, "the payload is for another transaction key")
        }
        guard let enc = Base64URL.decode(payload.enc), enc.count == 32,
            let ciphertext = Base64URL.decode(payload.ciphertext)
        else { throw TransactionKeyEnvelopeError(.malformedPayload, "enc or ciphertext is not valid base64url") }
        let info = try context.info()
        do {
            var recipient = try HPKE.Recipient(
                privateKey: privateKey,
                ciphersuite: ciphersuite,
                info: Data(info),
                encapsulatedKey: Data(enc)
            )
            return Array(try recipient.open(ciphertext, authenticating: aad))
        } catch {
            throw TransactionKeyEnvelopeError(.decryptionFailed, "the payload does not open with this key and context")
        }
    }
}
