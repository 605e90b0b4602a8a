// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Crypto
import VettIDCore
import VettIDCrypto
public import VettIDMessaging

/// What the device does with each message it pulls from its mailbox (docs/protocol.md 7.5): the decisions of a
/// catch-up, without the network.
///
/// A body it cannot open (another version, a key it no longer has, a forged or moved message) is terminated; a
/// notice it already handed to the app (a redelivery after a lost ack, a token swap) is acknowledged and skipped;
/// anything else goes to the app's handler. It remembers the last ``capacity`` notices it handed over.
public struct MailboxIntake: Sendable {
    /// What to do with one message.
    public enum Decision: Sendable, Equatable {
        /// Hand the notice to the app, then acknowledge it.
        case deliver(MailboxNotice)
        /// Already handed over: acknowledge it and go on.
        case duplicate(id: String)
        /// It can never be read here: `+TERM` it. The reason is for logs (no content).
        case terminate(reason: String)
    }

    /// How many handed-over notice ids it keeps.
    public let capacity: Int
    private var handed: Set<String> = []
    private var order: [String] = []
    private var next = 0

    public init(capacity: Int = 4_096) {
        self.capacity = max(1, capacity)
    }

    /// The decision for a message with `body`, on `subject` with header `Nats-Msg-Id` `messageID`, in the mailbox at
    /// `address`, opened with `key` (`nil` when the device has none).
    public func decide(
        body: [UInt8], subject: String, messageID: String?, address: MailboxAddress,
        key: Curve25519.KeyAgreement.PrivateKey?
    ) -> Decision {
        guard subject == address.subject else { return .terminate(reason: "a message on another subject") }
        guard let messageID, !messageID.isEmpty else { return .terminate(reason: "a message without Nats-Msg-Id") }
        guard let key else { return .terminate(reason: "this device has no mailbox key") }
        let plaintext: [UInt8]
        do {
            plaintext = try MailboxSeal.open(body, subject: subject, messageID: messageID, privateKey: key)
        } catch {
            return .terminate(reason: error.code.rawValue)
        }
        guard let notice = try? MailboxNotice.decode(plaintext) else {
            return .terminate(reason: "not a notice")
        }
        guard messageID == address.messageID(noticeID: notice.id) else {
            return .terminate(reason: "the notice id differs from the message id")
        }
        return handed.contains(notice.id) ? .duplicate(id: notice.id) : .deliver(notice)
    }

    /// Records that the app's handler returned for notice `id`.
    public mutating func recordHanded(_ id: String) {
        guard handed.insert(id).inserted else { return }
        if order.count < capacity {
            order.append(id)
        } else {
            handed.remove(order[next])
            order[next] = id
            next = (next + 1) % capacity
        }
    }

    /// Whether notice `id` was handed over (and is still remembered).
    public func wasHanded(_ id: String) -> Bool { handed.contains(id) }
}
