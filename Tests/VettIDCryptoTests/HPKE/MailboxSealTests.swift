// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import Foundation
import Testing
import VettIDCore
import VettIDCrypto

/// The mailbox body of docs/protocol.md 7.5: the documented vector (made by scripts/lib/mailbox_vector.py, an HPKE
/// on Python's `cryptography`) opens with swift-crypto, and each binding refuses.
@Suite struct MailboxSealTests {
    static func hex(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            bytes.append(UInt8(text[index..<next], radix: 16)!)
            index = next
        }
        return bytes
    }

    static let recipient = try! Curve25519.KeyAgreement.PrivateKey(
        rawRepresentation: hex("c0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedf"))
    static let subject =
        "OwnerSpace.3f2c9a1e-6b7d-4e21-9c55-0a1b2c3d4e5f.forApp.mailbox.NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs"
    static let messageID = "mn_EBESExQVFhcYGRobHB0eHw:NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs"
    static let body = hex(
        "01736845d54e87de09d6bb114aa7042c50a4a015bd9901d1a0026f5956533a1519516697cbd76fc0795500324240f667f67fdc23f6"
            + "9102aead8cb79b76cab3b9502f42c534864cb692738023608b9824d7d64f4e0b6422635379025b2d5c9171f5277b1dbc9b87c8"
            + "0a551563a8ce1c676060c07d4e26c24d5e6c8e9f2ee891ba34016f137ab9cdedf1d4e2be077887daa7b687a7862c22feef5f52"
            + "7f20e523f27b2cda21c80d6a2e2cdc16f677983ae0d7ad502affa04f04f9f0829497834bbcb34c3c93a3338c6a76a2aec84edd"
            + "2572d05754ac1d35b60832b3c06ef105b498b502")
    static let plaintext =
        #"{"body":{"client":"vettid-cli/1.0","ip":"127.0.0.1","kind":"login","occurred_at":1764374400000},"id":"mn_EBESExQVFhcYGRobHB0eHw","sent_at":1764374400123,"type":"security_event"}"#

    func openCode(
        _ body: [UInt8], subject: String = subject, messageID: String = messageID,
        key: Curve25519.KeyAgreement.PrivateKey = recipient
    ) -> MailboxSealError.Code? {
        do throws(MailboxSealError) {
            _ = try MailboxSeal.open(body, subject: subject, messageID: messageID, privateKey: key)
            return nil
        } catch {
            return error.code
        }
    }

    @Test func theDocumentedVectorOpens() throws {
        #expect(
            Base64URL.encode(Self.recipient.publicKey.rawRepresentation)
                == "3CzKMejkO72R3_fkdcyjNH60eBB9W9dlq6SuSjDDXUQ")
        let info = try MailboxSeal.info(subject: Self.subject)
        #expect(info.count == 127)
        #expect(Array(info.prefix(19)) == [0x00, 0x11] + Array("vettid-mailbox/v1".utf8))
        let opened = try MailboxSeal.open(
            Self.body, subject: Self.subject, messageID: Self.messageID, privateKey: Self.recipient)
        #expect(String(decoding: opened, as: UTF8.self) == Self.plaintext)
    }

    @Test func aSealedBodyOpensOnlyWithItsKeySubjectAndID() throws {
        let key = Curve25519.KeyAgreement.PrivateKey()
        let body = try MailboxSeal.seal(
            Array("hello".utf8), to: try MailboxSeal.publicKey(Array(key.publicKey.rawRepresentation)),
            subject: Self.subject, messageID: Self.messageID)
        #expect(body.count == 5 + MailboxSeal.overhead)
        #expect(body.first == 1)
        #expect(openCode(body, key: key) == nil)
        #expect(openCode(body, key: Self.recipient) == .openFailed)
        #expect(openCode(body, subject: Self.subject + "x", key: key) == .openFailed)
        #expect(openCode(body, messageID: "mn_other:x", key: key) == .openFailed)
        var flipped = body
        flipped[40] ^= 1
        #expect(openCode(flipped, key: key) == .openFailed)
        let again = try MailboxSeal.seal(
            Array("hello".utf8), to: key.publicKey, subject: Self.subject, messageID: Self.messageID)
        #expect(again != body, "a fresh ephemeral key per message")
    }

    @Test func malformedBodiesAreRefusedWithTheirCodes() {
        #expect(openCode([]) == .malformedBody)
        #expect(openCode([2] + Self.body.dropFirst()) == .unsupportedVersion)
        #expect(openCode(Array(Self.body.prefix(MailboxSeal.overhead - 1))) == .malformedBody)
        #expect(openCode(Array(Self.body.dropLast())) == .openFailed)
    }

    @Test func keysThatAreNotUsableAreRefused() {
        #expect(throws: MailboxSealError.self) { try MailboxSeal.publicKey([1, 2, 3]) }
        // Every X25519 small-order point: sealing to one would make a shared secret anyone knows.
        let smallOrder: [[UInt8]] = [
            [UInt8](repeating: 0, count: 32),
            [1] + [UInt8](repeating: 0, count: 31),
            Self.hex("e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800"),
            Self.hex("5f9c95bca3508c24b1d0b1559c83ef5b04445cc4581c8e86d8224eddd09f1157"),
            [0xEC] + [UInt8](repeating: 0xFF, count: 30) + [0x7F],
            [0xED] + [UInt8](repeating: 0xFF, count: 30) + [0x7F],
            [0xEE] + [UInt8](repeating: 0xFF, count: 30) + [0x7F],
        ]
        for point in smallOrder {
            #expect(throws: MailboxSealError.self) { try MailboxSeal.publicKey(point) }
        }
        #expect(throws: Never.self) {
            try MailboxSeal.publicKey(Array(Curve25519.KeyAgreement.PrivateKey().publicKey.rawRepresentation))
        }
    }
}
