// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// A stream as the server reports it: its configuration and its state.
public struct StreamInfo: Sendable, Equatable, Decodable {
    /// The configuration in force (with the server's defaults filled in).
    public var configuration: StreamConfiguration
    /// What the stream holds.
    public var state: StreamState

    /// Creates stream information.
    public init(configuration: StreamConfiguration, state: StreamState) {
        self.configuration = configuration
        self.state = state
    }

    private enum CodingKeys: String, CodingKey {
        case configuration = "config"
        case state
    }
}

/// What a stream holds.
public struct StreamState: Sendable, Equatable, Decodable {
    /// Messages stored.
    public var messages: UInt64
    /// Bytes stored.
    public var bytes: UInt64
    /// The sequence of the oldest message (0 when the stream never held one).
    public var firstSequence: UInt64
    /// The sequence of the newest message (0 when the stream never held one).
    public var lastSequence: UInt64
    /// Consumers of the stream.
    public var consumerCount: Int

    /// Creates a state.
    public init(messages: UInt64, bytes: UInt64, firstSequence: UInt64, lastSequence: UInt64, consumerCount: Int) {
        self.messages = messages
        self.bytes = bytes
        self.firstSequence = firstSequence
        self.lastSequence = lastSequence
        self.consumerCount = consumerCount
    }

    private enum CodingKeys: String, CodingKey {
        case messages, bytes
        case firstSequence = "first_seq"
        case lastSequence = "last_seq"
        case consumerCount = "consumer_count"
    }

    /// Decodes a state; absent counters are 0.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        messages = try container.decodeIfPresent(UInt64.self, forKey: .messages) ?? 0
        bytes = try container.decodeIfPresent(UInt64.self, forKey: .bytes) ?? 0
        firstSequence = try container.decodeIfPresent(UInt64.self, forKey: .firstSequence) ?? 0
        lastSequence = try container.decodeIfPresent(UInt64.self, forKey: .lastSequence) ?? 0
        consumerCount = try container.decodeIfPresent(Int.self, forKey: .consumerCount) ?? 0
    }
}
