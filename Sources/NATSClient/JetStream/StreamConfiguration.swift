// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// The configuration of a JetStream stream: the subset of the server's `StreamConfig` a mailbox needs.
///
/// A limit left `nil` is unlimited (the API's `-1`); a `nil` ``duplicateWindow`` takes the server's default (two
/// minutes). Decoded from the server, unlimited values come back as `nil`.
public struct StreamConfiguration: Sendable, Equatable, Codable {
    /// Where the stream keeps its messages.
    public enum Storage: String, Sendable, Codable {
        /// On disk (`file`): survives a restart.
        case file
        /// In memory (`memory`).
        case memory
    }

    /// When the stream lets messages go.
    public enum Retention: String, Sendable, Codable {
        /// By the limits only (`limits`): acks do not remove messages.
        case limits
        /// While a consumer is interested (`interest`).
        case interest
        /// Once one consumer acked (`workqueue`).
        case workQueue = "workqueue"
    }

    /// What a full stream does with a new message.
    public enum Discard: String, Sendable, Codable {
        /// Drops the oldest messages (`old`).
        case old
        /// Refuses the new message (`new`).
        case new
    }

    /// The stream's name: no `.`, `*`, `>` or whitespace.
    public var name: String
    /// The subjects the stream stores (wildcards allowed).
    public var subjects: [String]
    /// Where messages are kept.
    public var storage: Storage
    /// When messages go.
    public var retention: Retention
    /// How long a message is kept; `nil` for ever.
    public var maxAge: Duration?
    /// How many messages the stream keeps; `nil` for no limit.
    public var maxMessages: Int64?
    /// How many bytes the stream keeps; `nil` for no limit.
    public var maxBytes: Int64?
    /// How many messages the stream keeps per subject; `nil` for no limit.
    public var maxMessagesPerSubject: Int64?
    /// The largest message the stream accepts, in bytes; `nil` for no limit.
    public var maxMessageSize: Int64?
    /// How long a `Nats-Msg-Id` is remembered to refuse duplicates; `nil` for the server's default (2 minutes).
    public var duplicateWindow: Duration?
    /// The number of replicas (1 to 5; more than 1 needs a cluster).
    public var replicas: Int
    /// What happens when a limit is reached.
    public var discard: Discard

    /// Creates a configuration; every limit defaults to none.
    public init(
        name: String,
        subjects: [String],
        storage: Storage = .file,
        retention: Retention = .limits,
        maxAge: Duration? = nil,
        maxMessages: Int64? = nil,
        maxBytes: Int64? = nil,
        maxMessagesPerSubject: Int64? = nil,
        maxMessageSize: Int64? = nil,
        duplicateWindow: Duration? = nil,
        replicas: Int = 1,
        discard: Discard = .old
    ) {
        self.name = name
        self.subjects = subjects
        self.storage = storage
        self.retention = retention
        self.maxAge = maxAge
        self.maxMessages = maxMessages
        self.maxBytes = maxBytes
        self.maxMessagesPerSubject = maxMessagesPerSubject
        self.maxMessageSize = maxMessageSize
        self.duplicateWindow = duplicateWindow
        self.replicas = replicas
        self.discard = discard
    }

    private enum CodingKeys: String, CodingKey {
        case name, subjects, storage, retention, discard
        case maxAge = "max_age"
        case maxMessages = "max_msgs"
        case maxBytes = "max_bytes"
        case maxMessagesPerSubject = "max_msgs_per_subject"
        case maxMessageSize = "max_msg_size"
        case duplicateWindow = "duplicate_window"
        case replicas = "num_replicas"
    }

    /// Decodes the `config` of a stream as the server reports it.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        subjects = try container.decodeIfPresent([String].self, forKey: .subjects) ?? []
        storage = try container.decodeIfPresent(Storage.self, forKey: .storage) ?? .file
        retention = try container.decodeIfPresent(Retention.self, forKey: .retention) ?? .limits
        maxAge = try container.decodeNanoseconds(.maxAge)
        maxMessages = try container.decodeLimit(.maxMessages)
        maxBytes = try container.decodeLimit(.maxBytes)
        maxMessagesPerSubject = try container.decodeLimit(.maxMessagesPerSubject)
        maxMessageSize = try container.decodeLimit(.maxMessageSize)
        duplicateWindow = try container.decodeNanoseconds(.duplicateWindow)
        replicas = try container.decodeIfPresent(Int.self, forKey: .replicas) ?? 1
        discard = try container.decodeIfPresent(Discard.self, forKey: .discard) ?? .old
    }

    /// Encodes the request body: unset limits as `-1`, durations in nanoseconds.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(subjects, forKey: .subjects)
        try container.encode(storage, forKey: .storage)
        try container.encode(retention, forKey: .retention)
        try container.encode(maxAge.map(JetStreamJSON.nanoseconds) ?? 0, forKey: .maxAge)
        try container.encode(maxMessages ?? -1, forKey: .maxMessages)
        try container.encode(maxBytes ?? -1, forKey: .maxBytes)
        try container.encode(maxMessagesPerSubject ?? -1, forKey: .maxMessagesPerSubject)
        try container.encode(maxMessageSize ?? -1, forKey: .maxMessageSize)
        try container.encodeNanoseconds(duplicateWindow, forKey: .duplicateWindow)
        try container.encode(replicas, forKey: .replicas)
        try container.encode(discard, forKey: .discard)
    }
}
