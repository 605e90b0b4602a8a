// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// A consumer as the server reports it: its configuration and its progress.
public struct ConsumerInfo: Sendable, Equatable, Decodable {
    /// The stream the consumer reads.
    public var streamName: String
    /// The consumer's name.
    public var name: String
    /// The configuration in force (with the server's defaults filled in).
    public var configuration: ConsumerConfiguration
    /// The last message delivered.
    public var delivered: ConsumerSequence
    /// Everything up to this point is acknowledged.
    public var ackFloor: ConsumerSequence
    /// Messages delivered and not yet acknowledged.
    public var ackPending: Int
    /// Messages delivered more than once.
    public var redelivered: Int
    /// Pull requests waiting on the server.
    public var waiting: Int
    /// Messages of the stream the consumer has not delivered yet.
    public var pending: UInt64

    private enum CodingKeys: String, CodingKey {
        case streamName = "stream_name"
        case name
        case configuration = "config"
        case delivered
        case ackFloor = "ack_floor"
        case ackPending = "num_ack_pending"
        case redelivered = "num_redelivered"
        case waiting = "num_waiting"
        case pending = "num_pending"
    }

    /// Decodes consumer information; absent counters are 0.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        streamName = try container.decode(String.self, forKey: .streamName)
        name = try container.decode(String.self, forKey: .name)
        configuration = try container.decode(ConsumerConfiguration.self, forKey: .configuration)
        delivered = try container.decodeIfPresent(ConsumerSequence.self, forKey: .delivered) ?? .init()
        ackFloor = try container.decodeIfPresent(ConsumerSequence.self, forKey: .ackFloor) ?? .init()
        ackPending = try container.decodeIfPresent(Int.self, forKey: .ackPending) ?? 0
        redelivered = try container.decodeIfPresent(Int.self, forKey: .redelivered) ?? 0
        waiting = try container.decodeIfPresent(Int.self, forKey: .waiting) ?? 0
        pending = try container.decodeIfPresent(UInt64.self, forKey: .pending) ?? 0
    }
}

/// A position of a consumer: its own sequence and the stream's.
public struct ConsumerSequence: Sendable, Equatable, Decodable {
    /// The consumer's sequence (counts deliveries).
    public var consumerSequence: UInt64
    /// The stream's sequence of that message.
    public var streamSequence: UInt64

    /// Creates a position (by default the start).
    public init(consumerSequence: UInt64 = 0, streamSequence: UInt64 = 0) {
        self.consumerSequence = consumerSequence
        self.streamSequence = streamSequence
    }

    private enum CodingKeys: String, CodingKey {
        case consumerSequence = "consumer_seq"
        case streamSequence = "stream_seq"
    }
}
