// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// A stream as the server reports it: its configuration and its state.
public struct StreamInfo: Sendable, Equatable, Decodable {
    /// The configuration in force (with the server's defaults filled in).
    public var configuration: StreamConfiguration
    /// What the stream holds.
    public var state: StreamState
    /// Where the stream runs in a JetStream cluster: its leader and replicas; `nil` from a server outside a cluster.
    public var cluster: StreamClusterInfo?

    /// Creates stream information.
    public init(configuration: StreamConfiguration, state: StreamState, cluster: StreamClusterInfo? = nil) {
        self.configuration = configuration
        self.state = state
        self.cluster = cluster
    }

    private enum CodingKeys: String, CodingKey {
        case configuration = "config"
        case state
        case cluster
    }
}

/// Where a stream runs in a JetStream cluster (the `cluster` of its information).
public struct StreamClusterInfo: Sendable, Equatable, Decodable {
    /// The cluster's name.
    public var name: String?
    /// The `server_name` of the server that leads the stream (takes its writes); `nil` while none is elected.
    public var leader: String?
    /// The other servers holding a replica.
    public var replicas: [StreamReplicaInfo]

    /// Creates cluster information.
    public init(name: String? = nil, leader: String? = nil, replicas: [StreamReplicaInfo] = []) {
        self.name = name
        self.leader = leader
        self.replicas = replicas
    }

    private enum CodingKeys: String, CodingKey {
        case name, leader, replicas
    }

    /// Decodes cluster information; absent replicas are none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decodeIfPresent(String.self, forKey: .name)
        leader = try container.decodeIfPresent(String.self, forKey: .leader)
        replicas = try container.decodeIfPresent([StreamReplicaInfo].self, forKey: .replicas) ?? []
    }
}

/// A replica of a stream on another server, as its leader sees it.
public struct StreamReplicaInfo: Sendable, Equatable, Decodable {
    /// The server's `server_name`.
    public var name: String
    /// Whether the replica has everything the leader has.
    public var current: Bool
    /// Whether the leader cannot reach it.
    public var offline: Bool
    /// How many operations it is behind, when known.
    public var lag: UInt64?

    /// Creates replica information.
    public init(name: String, current: Bool, offline: Bool = false, lag: UInt64? = nil) {
        self.name = name
        self.current = current
        self.offline = offline
        self.lag = lag
    }

    private enum CodingKeys: String, CodingKey {
        case name, current, offline, lag
    }

    /// Decodes replica information; absent flags are `false`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        current = try container.decodeIfPresent(Bool.self, forKey: .current) ?? false
        offline = try container.decodeIfPresent(Bool.self, forKey: .offline) ?? false
        lag = try container.decodeIfPresent(UInt64.self, forKey: .lag)
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
