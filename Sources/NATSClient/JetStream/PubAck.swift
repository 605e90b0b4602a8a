// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// The acknowledgement of a JetStream publish: the stream that stored the message and its sequence there.
public struct PubAck: Sendable, Equatable, Decodable {
    /// The stream that stored the message.
    public var stream: String
    /// The message's sequence in the stream (for a duplicate: the sequence of the message stored first).
    public var sequence: UInt64
    /// Whether the message's `Nats-Msg-Id` was seen within the stream's duplicate window: the message was not
    /// stored again.
    public var duplicate: Bool

    /// Creates an acknowledgement.
    public init(stream: String, sequence: UInt64, duplicate: Bool = false) {
        self.stream = stream
        self.sequence = sequence
        self.duplicate = duplicate
    }

    private enum CodingKeys: String, CodingKey {
        case stream
        case sequence = "seq"
        case duplicate
    }

    /// Decodes `{"stream":"S","seq":1,"duplicate":true}` (`duplicate` absent means `false`).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        stream = try container.decode(String.self, forKey: .stream)
        sequence = try container.decode(UInt64.self, forKey: .sequence)
        duplicate = try container.decodeIfPresent(Bool.self, forKey: .duplicate) ?? false
    }
}
