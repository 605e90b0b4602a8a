// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// The configuration of a durable pull consumer: the subset of the server's `ConsumerConfig` a mailbox needs.
///
/// A value left `nil` takes the server's default: `ackWait` 30 seconds, `maxDeliver` unlimited, `maxAckPending`
/// 1000, no `inactiveThreshold` (a durable consumer then stays until deleted).
public struct ConsumerConfiguration: Sendable, Equatable, Codable {
    /// How messages are acknowledged.
    public enum AckPolicy: String, Sendable, Codable {
        /// Each message on its own (`explicit`).
        case explicit
        /// An ack acknowledges every earlier message too (`all`).
        case all
        /// No acks (`none`).
        case none
    }

    /// Where in the stream the consumer starts.
    public enum DeliverPolicy: Sendable, Equatable {
        /// From the first message (`all`).
        case all
        /// From the last message (`last`).
        case last
        /// Only messages stored after the consumer was created (`new`).
        case new
        /// The last message of each subject (`last_per_subject`; needs a filter subject).
        case lastPerSubject
        /// From a stream sequence (`by_start_sequence` with `opt_start_seq`).
        case startSequence(UInt64)
    }

    /// The durable name: no `.`, `*`, `>` or whitespace. Decoded from an ephemeral consumer (an ordered
    /// consumer's), its name.
    public var durableName: String
    /// The subject the consumer delivers (wildcards allowed); `nil` for every subject of the stream.
    public var filterSubject: String?
    /// How messages are acknowledged.
    public var ackPolicy: AckPolicy
    /// How long the server waits for an ack before it delivers again.
    public var ackWait: Duration?
    /// How many times a message is delivered at most; `nil` for no limit.
    public var maxDeliver: Int?
    /// Where the consumer starts.
    public var deliverPolicy: DeliverPolicy
    /// How many messages may wait for their ack at once.
    public var maxAckPending: Int?
    /// How long the consumer may go without a pull before the server deletes it; `nil` to keep it.
    public var inactiveThreshold: Duration?

    /// Creates a configuration with explicit acks, delivering from the first message.
    public init(
        durableName: String,
        filterSubject: String? = nil,
        ackPolicy: AckPolicy = .explicit,
        ackWait: Duration? = nil,
        maxDeliver: Int? = nil,
        deliverPolicy: DeliverPolicy = .all,
        maxAckPending: Int? = nil,
        inactiveThreshold: Duration? = nil
    ) {
        self.durableName = durableName
        self.filterSubject = filterSubject
        self.ackPolicy = ackPolicy
        self.ackWait = ackWait
        self.maxDeliver = maxDeliver
        self.deliverPolicy = deliverPolicy
        self.maxAckPending = maxAckPending
        self.inactiveThreshold = inactiveThreshold
    }

    private enum CodingKeys: String, CodingKey {
        case durableName = "durable_name"
        case name
        case filterSubject = "filter_subject"
        case ackPolicy = "ack_policy"
        case ackWait = "ack_wait"
        case maxDeliver = "max_deliver"
        case deliverPolicy = "deliver_policy"
        case startSequence = "opt_start_seq"
        case maxAckPending = "max_ack_pending"
        case inactiveThreshold = "inactive_threshold"
    }

    /// Decodes the `config` of a consumer as the server reports it.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        // An ephemeral consumer (an ordered consumer's) has a `name` and no `durable_name`.
        durableName =
            try container.decodeIfPresent(String.self, forKey: .durableName)
            ?? container.decode(String.self, forKey: .name)
        filterSubject = try container.decodeIfPresent(String.self, forKey: .filterSubject).flatMap {
            $0.isEmpty ? nil : $0
        }
        ackPolicy = try container.decodeIfPresent(AckPolicy.self, forKey: .ackPolicy) ?? .none
        ackWait = try container.decodeNanoseconds(.ackWait)
        maxDeliver = try container.decodeLimit(.maxDeliver).map { Int($0) }
        let policy = try container.decodeIfPresent(String.self, forKey: .deliverPolicy) ?? "all"
        switch policy {
        case "all": deliverPolicy = .all
        case "last": deliverPolicy = .last
        case "new": deliverPolicy = .new
        case "last_per_subject": deliverPolicy = .lastPerSubject
        case "by_start_sequence":
            deliverPolicy = .startSequence(try container.decode(UInt64.self, forKey: .startSequence))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .deliverPolicy, in: container, debugDescription: "unsupported deliver policy \(policy)")
        }
        maxAckPending = try container.decodeLimit(.maxAckPending).map { Int($0) }
        inactiveThreshold = try container.decodeNanoseconds(.inactiveThreshold)
    }

    /// Encodes the `config` of a create request; `nil` values are left out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(durableName, forKey: .durableName)
        try container.encodeIfPresent(filterSubject, forKey: .filterSubject)
        try container.encode(ackPolicy, forKey: .ackPolicy)
        try container.encodeNanoseconds(ackWait, forKey: .ackWait)
        try container.encodeIfPresent(maxDeliver, forKey: .maxDeliver)
        try deliverPolicy.encode(into: &container, policy: .deliverPolicy, startSequence: .startSequence)
        try container.encodeIfPresent(maxAckPending, forKey: .maxAckPending)
        try container.encodeNanoseconds(inactiveThreshold, forKey: .inactiveThreshold)
    }
}

extension ConsumerConfiguration.DeliverPolicy {
    /// Writes `deliver_policy` under `policy` and, for a start sequence, `opt_start_seq` under `startSequence`.
    func encode<Key: CodingKey>(
        into container: inout KeyedEncodingContainer<Key>, policy: Key, startSequence: Key
    ) throws {
        switch self {
        case .all: try container.encode("all", forKey: policy)
        case .last: try container.encode("last", forKey: policy)
        case .new: try container.encode("new", forKey: policy)
        case .lastPerSubject: try container.encode("last_per_subject", forKey: policy)
        case .startSequence(let sequence):
            try container.encode("by_start_sequence", forKey: policy)
            try container.encode(sequence, forKey: startSequence)
        }
    }
}
