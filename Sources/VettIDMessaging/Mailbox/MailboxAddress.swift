// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// Where a device's mailbox lives in JetStream (docs/protocol.md 7.5).

public import VettIDCore

/// A device's mailbox: the stream, its subject and its durable pull consumer, all derived from the member's
/// namespace and the device key's RFC 7638 thumbprint.
public struct MailboxAddress: Sendable, Hashable, Codable {
    /// The one stream every mailbox lives in.
    public static let streamName = "VETTID_MAILBOX"
    /// The stream's subjects: every member's every device.
    public static let streamSubjects = "\(VaultNamespace.ownerSpaceRoot).*.forApp.mailbox.*"
    /// The subjects of every device's presence question (docs/protocol.md 7.6): the server's relay asks, a connected
    /// app answers.
    public static let presenceSubjects = "\(VaultNamespace.ownerSpaceRoot).*.forApp.presence.*"
    /// The prefix of a device's durable consumer name.
    public static let consumerPrefix = "mbx-"

    /// The stream (``streamName``).
    public let stream: String
    /// The device's durable pull consumer (`mbx-{device}`).
    public let consumer: String
    /// The device's subject (`OwnerSpace.{guid}.forApp.mailbox.{device}`).
    public let subject: String

    /// A mailbox as the server named it (the token response's `mailbox`).
    public init(stream: String, consumer: String, subject: String) {
        self.stream = stream
        self.consumer = consumer
        self.subject = subject
    }

    /// The mailbox of the device with key thumbprint `deviceJKT` in `namespace`.
    ///
    /// - Throws: ``VaultMessageError`` `invalidSubject` when the thumbprint is not one subject token of base64url.
    public init(namespace: VaultNamespace, deviceJKT: String) throws(VaultMessageError) {
        guard Self.isThumbprint(deviceJKT) else {
            throw VaultMessageError(.invalidSubject, "a device thumbprint is 43 characters of base64url")
        }
        self.init(
            stream: Self.streamName, consumer: Self.consumerPrefix + deviceJKT,
            subject: "\(namespace.ownerSpace).forApp.mailbox.\(deviceJKT)")
    }

    /// The `Nats-Msg-Id` of notice `noticeID` in this mailbox: `{notice id}:{device}` (unique per device, so the
    /// stream's de-duplication keeps one copy per mailbox).
    public func messageID(noticeID: String) -> String {
        "\(noticeID):\(subject[subject.index(after: subject.lastIndex(of: ".") ?? subject.startIndex)...])"
    }

    /// The device's presence subject (`OwnerSpace.{guid}.forApp.presence.{device}`): the mailbox relay asks there
    /// whether the device's app is connected before it sends a wake push, and a connected app answers
    /// (docs/protocol.md 7.6).
    public var presenceSubject: String {
        guard let device = subject.lastIndex(of: "."),
            let kind = subject[..<device].lastIndex(of: ".")
        else { return subject }
        return subject[...kind] + "presence" + subject[device...]
    }

    /// The ack subjects of this consumer (`$JS.ACK.{stream}.{consumer}.>`).
    public var ackSubjects: String { "$JS.ACK.\(stream).\(consumer).>" }
    /// The pull subject of this consumer (`$JS.API.CONSUMER.MSG.NEXT.{stream}.{consumer}`).
    public var pullSubject: String { "$JS.API.CONSUMER.MSG.NEXT.\(stream).\(consumer)" }

    /// An RFC 7638 SHA-256 thumbprint: 43 characters of unpadded base64url.
    static func isThumbprint(_ value: String) -> Bool {
        value.utf8.count == 43
            && value.utf8.allSatisfy { byte in
                (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
                    || byte == 0x2D || byte == 0x5F
            }
    }
}
