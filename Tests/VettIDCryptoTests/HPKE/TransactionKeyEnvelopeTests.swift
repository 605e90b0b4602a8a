// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import Foundation
import Testing
import VettIDCore
import VettIDCrypto

@Suite struct TransactionKeyEnvelopeTests {
    let key = TransactionKeyPair.generate(keyID: "tk-1")
    let context = TransactionKeyContext(purpose: .enrollmentPassword, contextID: "session-42", keyID: "tk-1")
    let password = Array("correct horse battery staple".utf8)
    let aad = Array("jkt=0ZcOCORZ".utf8)

    func openCode(
        _ payload: EncryptedPayload, context: TransactionKeyContext? = nil,
        privateKey: Curve25519.KeyAgreement.PrivateKey? = nil, aad: [UInt8]? = nil
    ) -> TransactionKeyEnvelopeError.Code? {
        do throws(TransactionKeyEnvelopeError) {
            _ = try TransactionKeyEnvelope.open(
                payload, context: context ?? self.context, privateKey: privateKey ?? key.privateKey,
                aad: aad ?? self.aad)
            return nil
        } catch {
            return error.code
        }
    }

    @Test func infoHasTheDocumentedLayout() throws {
        let info = try TransactionKeyContext(purpose: TransactionKeyPurpose(rawValue: "p"), contextID: "ab", keyID: "k")
            .info()
        let expected: [UInt8] =
            [0, 16] + Array("vettid-tx-key/v1".utf8) + [0, 1] + Array("p".utf8) + [0, 2] + Array("ab".utf8) + [0, 1]
            + Array("k".utf8)
        #expect(info == expected)
        #expect(throws: TransactionKeyEnvelopeError.self) {
            try TransactionKeyContext(purpose: .enrollmentPassword, contextID: "", keyID: "k").info()
        }
    }

    @Test func envelopeUsesTheDocumentedInfoWithPlainHPKE() throws {
        // An independent HPKE recipient, given the documented info bytes, opens what the envelope sealed.
        let payload = try TransactionKeyEnvelope.seal(password, to: key.publicKey, context: context, aad: aad)
        let info: [UInt8] =
            [0, 16] + Array("vettid-tx-key/v1".utf8) + [0, 19] + Array("enrollment-password".utf8)
            + [0, 10] + Array("session-42".utf8) + [0, 4] + Array("tk-1".utf8)
        var recipient = try HPKE.Recipient(
            privateKey: key.privateKey,
            ciphersuite: .Curve25519_SHA256_ChachaPoly,
            info: Data(info),
            encapsulatedKey: Data(try #require(Base64URL.decode(payload.enc)))
        )
        let plaintext = try recipient.open(try #require(Base64URL.decode(payload.ciphertext)), authenticating: aad)
        #expect(Array(plaintext) == password)
    }

    @Test func sealsAndOpens() throws {
        let payload = try TransactionKeyEnvelope.seal(password, to: key.publicKey, context: context, aad: aad)
        #expect(payload.keyID == "tk-1")
        #expect(Base64URL.decode(payload.enc)?.count == 32)
        #expect(Base64URL.decode(payload.ciphertext)?.count == password.count + 16)
        #expect(
            try TransactionKeyEnvelope.open(payload, context: context, privateKey: key.privateKey, aad: aad) == password
        )
        // A fresh ephemeral key each time.
        let again = try TransactionKeyEnvelope.seal(password, to: key.publicKey, context: context, aad: aad)
        #expect(again.enc != payload.enc)
    }

    @Test func wireFormatIsSnakeCase() throws {
        let payload = EncryptedPayload(keyID: "k", enc: "e", ciphertext: "c")
        let json = try #require(JSONValue.parse(Array(try JSONEncoder().encode(payload))))
        #expect(json["key_id"]?.stringValue == "k")
        #expect(json["enc"]?.stringValue == "e")
        #expect(json["ciphertext"]?.stringValue == "c")
        let decoded = try JSONDecoder().decode(
            EncryptedPayload.self, from: Data(#"{"key_id":"k","enc":"e","ciphertext":"c"}"#.utf8))
        #expect(decoded == payload)
    }

    @Test func refusesAnotherContextAADOrKey() throws {
        let payload = try TransactionKeyEnvelope.seal(password, to: key.publicKey, context: context, aad: aad)
        #expect(openCode(payload) == nil)
        #expect(
            openCode(payload, context: .init(purpose: .authenticationPassword, contextID: "session-42", keyID: "tk-1"))
                == .decryptionFailed)
        #expect(
            openCode(payload, context: .init(purpose: .enrollmentPassword, contextID: "session-43", keyID: "tk-1"))
                == .decryptionFailed)
        #expect(openCode(payload, aad: Array("jkt=other".utf8)) == .decryptionFailed)
        #expect(openCode(payload, aad: []) == .decryptionFailed)
        #expect(openCode(payload, privateKey: Curve25519.KeyAgreement.PrivateKey()) == .decryptionFailed)
    }

    @Test func refusesAPayloadMovedToAnotherKeyID() throws {
        let payload = try TransactionKeyEnvelope.seal(password, to: key.publicKey, context: context, aad: aad)
        let otherContext = TransactionKeyContext(purpose: .enrollmentPassword, contextID: "session-42", keyID: "tk-2")
        // The server looks up key tk-2 but the payload names tk-1.
        #expect(openCode(payload, context: otherContext) == .keyIDMismatch)
        // Relabelled to tk-2: the info differs, so it does not open even with the right private key.
        var relabelled = payload
        relabelled.keyID = "tk-2"
        #expect(openCode(relabelled, context: otherContext) == .decryptionFailed)
    }

    @Test func refusesMalformedOrModifiedPayloads() throws {
        let payload = try TransactionKeyEnvelope.seal(password, to: key.publicKey, context: context, aad: aad)
        var badEnc = payload
        badEnc.enc = "AAAA"
        #expect(openCode(badEnc) == .malformedPayload)
        var notBase64 = payload
        notBase64.ciphertext = "***"
        #expect(openCode(notBase64) == .malformedPayload)
        var flipped = payload
        var bytes = try #require(Base64URL.decode(payload.ciphertext))
        bytes[0] ^= 0x01
        flipped.ciphertext = Base64URL.encode(bytes)
        #expect(openCode(flipped) == .decryptionFailed)
    }

    @Test func keyPairsRoundTrip() throws {
        let restored = try TransactionKeyPair(
            keyID: key.keyID, privateKeyRawRepresentation: key.privateKeyRawRepresentation)
        #expect(restored.publicKeyBase64URL == key.publicKeyBase64URL)
        let publicKey = try TransactionKeyPair.publicKey(base64URL: key.publicKeyBase64URL)
        #expect(publicKey.rawRepresentation == key.publicKey.rawRepresentation)
        #expect(throws: TransactionKeyEnvelopeError.self) { try TransactionKeyPair.publicKey(base64URL: "AAAA") }
        #expect(TransactionKeyPair.generate().keyID != TransactionKeyPair.generate().keyID)
        #expect(!String(describing: key).contains(Base64URL.encode(key.privateKeyRawRepresentation)))
    }
}
