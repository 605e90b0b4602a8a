// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import Foundation
import Testing
import VettIDCrypto
import VettIDMessaging
import VettIDNats

/// The device's decisions on what it pulls from its mailbox (docs/protocol.md 7.5), without the network.
@Suite struct MailboxIntakeTests {
    let key = Curve25519.KeyAgreement.PrivateKey()
    let address = try! MailboxAddress(
        namespace: try! VaultNamespace(userGUID: "3f2c9a1e-6b7d-4e21-9c55-0a1b2c3d4e5f"),
        deviceJKT: "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs")

    func notice(_ id: String = MailboxNotice.newID()) -> MailboxNotice {
        MailboxNotice(
            id: id, kind: .securityEvent, sentAt: 1_764_374_400_123,
            securityEvent: .init(kind: "login", occurredAt: 1_764_374_400_000, ip: "127.0.0.1"))
    }

    /// The body the vault publishes for `notice` in `address`.
    func sealed(_ notice: MailboxNotice, to key: Curve25519.KeyAgreement.PublicKey? = nil, messageID: String? = nil)
        throws -> (body: [UInt8], messageID: String)
    {
        let id = messageID ?? address.messageID(noticeID: notice.id)
        let body = try MailboxSeal.seal(
            Array(try notice.encoded()), to: key ?? self.key.publicKey, subject: address.subject, messageID: id)
        return (body, id)
    }

    @Test func theAddressIsDerivedFromTheNamespaceAndTheDeviceKey() throws {
        #expect(address.stream == "VETTID_MAILBOX")
        #expect(address.consumer == "mbx-NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs")
        #expect(
            address.subject
                == "OwnerSpace.3f2c9a1e-6b7d-4e21-9c55-0a1b2c3d4e5f.forApp.mailbox.NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs"
        )
        #expect(
            address.messageID(noticeID: "mn_EBESExQVFhcYGRobHB0eHw")
                == "mn_EBESExQVFhcYGRobHB0eHw:NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs")
        #expect(address.pullSubject == "$JS.API.CONSUMER.MSG.NEXT.VETTID_MAILBOX.\(address.consumer)")
        #expect(address.ackSubjects == "$JS.ACK.VETTID_MAILBOX.\(address.consumer).>")
        let namespace = try VaultNamespace(userGUID: "3f2c9a1e-6b7d-4e21-9c55-0a1b2c3d4e5f")
        #expect(throws: VaultMessageError.self) { try MailboxAddress(namespace: namespace, deviceJKT: "a.b") }
        #expect(throws: VaultMessageError.self) { try MailboxAddress(namespace: namespace, deviceJKT: "*") }
    }

    @Test func aNewNoticeIsDeliveredThenItsRedeliveryIsADuplicate() throws {
        var intake = MailboxIntake()
        let notice = notice()
        let (body, messageID) = try sealed(notice)
        let first = intake.decide(
            body: body, subject: address.subject, messageID: messageID, address: address, key: key)
        #expect(first == .deliver(notice))
        // Not yet handed (the handler threw): the same message is delivered again next time.
        #expect(
            intake.decide(body: body, subject: address.subject, messageID: messageID, address: address, key: key)
                == .deliver(notice))
        intake.recordHanded(notice.id)
        #expect(
            intake.decide(body: body, subject: address.subject, messageID: messageID, address: address, key: key)
                == .duplicate(id: notice.id))
    }

    @Test func whatCanNeverBeReadHereIsTerminated() throws {
        let intake = MailboxIntake()
        let notice = notice()
        let (body, messageID) = try sealed(notice)
        func decision(
            _ body: [UInt8], subject: String? = nil, messageID: String?,
            key: Curve25519.KeyAgreement.PrivateKey?
        ) -> MailboxIntake.Decision {
            intake.decide(
                body: body, subject: subject ?? address.subject, messageID: messageID, address: address, key: key)
        }
        func isTerminated(_ decision: MailboxIntake.Decision) -> Bool {
            if case .terminate = decision { return true }
            return false
        }
        #expect(isTerminated(decision(body, messageID: messageID, key: Curve25519.KeyAgreement.PrivateKey())))
        #expect(isTerminated(decision(body, messageID: messageID, key: nil)))
        #expect(isTerminated(decision(body, messageID: nil, key: key)))
        #expect(isTerminated(decision(body, messageID: "mn_other:\(messageID)", key: key)))
        #expect(isTerminated(decision(body, subject: address.subject + "x", messageID: messageID, key: key)))
        #expect(isTerminated(decision([2] + body.dropFirst(), messageID: messageID, key: key)))
        // Sealed for this device and this id, but the notice inside names another id: not the vault's message.
        let (mismatched, mismatchedID) = try sealed(notice, messageID: address.messageID(noticeID: "mn_other"))
        #expect(isTerminated(decision(mismatched, messageID: mismatchedID, key: key)))
        // Not a notice at all.
        let junk = try MailboxSeal.seal(
            Array("not json".utf8), to: key.publicKey, subject: address.subject, messageID: messageID)
        #expect(isTerminated(decision(junk, messageID: messageID, key: key)))
    }

    @Test func theMemoryOfHandedNoticesIsBounded() {
        var intake = MailboxIntake(capacity: 3)
        for id in ["a", "b", "c", "d"] { intake.recordHanded(id) }
        #expect(!intake.wasHanded("a"), "the oldest is forgotten first")
        #expect(intake.wasHanded("b") && intake.wasHanded("c") && intake.wasHanded("d"))
        intake.recordHanded("d")
        intake.recordHanded("e")
        #expect(!intake.wasHanded("b"))
        #expect(intake.wasHanded("e"))
    }

    @Test func aNoticeOfAKindThisCodeDoesNotKnowDecodesWithoutABody() throws {
        let json = #"{"body":{"x":1},"id":"mn_x","sent_at":5,"type":"vault.future"}"#
        let notice = try MailboxNotice.decode(Array(json.utf8))
        #expect(notice.kind.rawValue == "vault.future")
        #expect(notice.securityEvent == nil)
        let known = self.notice("mn_y")
        #expect(try MailboxNotice.decode(try known.encoded()) == known)
        #expect(known.summary.contains("security event login"))
    }
}
