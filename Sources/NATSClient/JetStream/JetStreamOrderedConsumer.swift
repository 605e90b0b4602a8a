// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// An ordered consumer (NATS ADR-17) on pull fetches: an ephemeral consumer in memory without acks, replaced from the
// last delivered stream sequence + 1 on a gap, a missed heartbeat, a reconnect or a consumer the server lost.
// OrderedConsumerStateMachine decides; the iterator creates, fetches and deletes.

/// How an ordered consumer reads a stream.
public struct OrderedConsumerConfiguration: Sendable, Equatable {
    /// The subject to read (wildcards allowed); `nil` for every subject of the stream.
    public var filterSubject: String?
    /// Where the replay starts; a replacement consumer starts after the last message delivered instead.
    public var deliverPolicy: ConsumerConfiguration.DeliverPolicy
    /// The most messages one pull asks for.
    public var batch: Int
    /// How long one pull stays open on the server while nothing comes.
    public var expires: Duration
    /// The idle heartbeat each pull asks for; two missed ones replace the consumer. Below half of ``expires``.
    public var idleHeartbeat: Duration
    /// How long the server keeps a consumer nobody pulls from (a replay abandoned without ``JetStreamOrderedConsumer/AsyncIterator/finish()``).
    public var inactiveThreshold: Duration
    /// Whether the sequence ends once everything the stream held when it was reached is delivered; otherwise it
    /// waits for new messages until the task is cancelled.
    public var endWhenCaughtUp: Bool
    /// How many failures in a row (creating a consumer, a pull) end the replay; `nil` for no limit.
    public var maxConsecutiveFailures: Int?

    /// Creates a configuration: the whole stream, 100 messages a pull, pulls of 30 s with a heartbeat of 5 s.
    public init(
        filterSubject: String? = nil,
        deliverPolicy: ConsumerConfiguration.DeliverPolicy = .all,
        batch: Int = 100,
        expires: Duration = .seconds(30),
        idleHeartbeat: Duration = .seconds(5),
        inactiveThreshold: Duration = .seconds(300),
        endWhenCaughtUp: Bool = false,
        maxConsecutiveFailures: Int? = 10
    ) {
        self.filterSubject = filterSubject
        self.deliverPolicy = deliverPolicy
        self.batch = batch
        self.expires = expires
        self.idleHeartbeat = idleHeartbeat
        self.inactiveThreshold = inactiveThreshold
        self.endWhenCaughtUp = endWhenCaughtUp
        self.maxConsecutiveFailures = maxConsecutiveFailures
    }
}

/// Every message of a stream (or of a filter subject) exactly once, in stream order, over consumers the client
/// replaces when one fails: an ordered consumer (NATS ADR-17), for replay.
///
/// ```swift
/// let replay = jetStream.orderedConsumer(on: "EVENTS", configuration: .init(endWhenCaughtUp: true))
/// for try await message in replay {
///     try apply(message.payload)   // no ack: the consumer takes none
/// }
/// ```
///
/// Each consumer is ephemeral, in memory, without acks and delivers each message once (`max_deliver` 1). The
/// sequence checks the consumer sequence of every delivery: on a gap, two missed heartbeats, a reconnect, a consumer
/// the server deleted or lost, it deletes the consumer and creates another that starts at the stream sequence after
/// the last one it handed out. Nothing is lost, nothing comes twice, as long as the stream still holds the messages.
public struct JetStreamOrderedConsumer: AsyncSequence, Sendable {
    /// A delivered message.
    public typealias Element = JetStreamMessage
    /// What the iteration throws.
    public typealias Failure = JetStreamError

    /// The context the consumers are created with.
    public let jetStream: JetStreamContext
    /// The stream read.
    public let stream: String
    /// How it is read.
    public let configuration: OrderedConsumerConfiguration
    let clock: any Clock<Duration>

    init(
        jetStream: JetStreamContext,
        stream: String,
        configuration: OrderedConsumerConfiguration,
        clock: any Clock<Duration>
    ) {
        self.jetStream = jetStream
        self.stream = stream
        self.configuration = configuration
        self.clock = clock
    }

    /// Creates the iterator; its first `next()` creates the first consumer.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(consumer: self)
    }

    /// The iterator: it owns the consumer in use and the messages of the last pull not handed out yet.
    public struct AsyncIterator: AsyncIteratorProtocol, Sendable {
        private let consumer: JetStreamOrderedConsumer
        private var machine: OrderedConsumerStateMachine
        private var buffered: [JetStreamMessage] = []
        private var reconnectsSeen: UInt64

        init(consumer: JetStreamOrderedConsumer) {
            self.consumer = consumer
            let configuration = consumer.configuration
            machine = OrderedConsumerStateMachine(
                deliverPolicy: configuration.deliverPolicy,
                batch: configuration.batch,
                endWhenCaughtUp: configuration.endWhenCaughtUp,
                maxConsecutiveFailures: configuration.maxConsecutiveFailures
            )
            reconnectsSeen = consumer.jetStream.client.statistics.reconnects
        }

        /// The name of the consumer in use (each replacement has a new one); `nil` before the first `next()`.
        public var consumerName: String? { machine.consumer }
        /// How many times a consumer was replaced.
        public var resets: Int { machine.resets }
        /// The stream sequence of the last message handed out; 0 before the first.
        public var lastStreamSequence: UInt64 { machine.lastStreamSequence }

        /// The next message in stream order, or `nil` once caught up (with
        /// ``OrderedConsumerConfiguration/endWhenCaughtUp``).
        ///
        /// - Throws: ``JetStreamError``: `streamNotFound`, `cancelled`, `requestFailed` (the client closed), or the
        ///   last error when ``OrderedConsumerConfiguration/maxConsecutiveFailures`` failures came in a row.
        public mutating func next() async throws(JetStreamError) -> JetStreamMessage? {
            while true {
                if !buffered.isEmpty {
                    let message = buffered.removeFirst()
                    switch machine.received(message.metadata) {
                    case .deliver: return message
                    case .skip: continue
                    case .reset:
                        buffered.removeAll()
                        continue
                    }
                }
                switch machine.nextStep() {
                case .fail(let error):
                    throw error
                case .end(let name):
                    if let name { delete(name) }
                    return nil
                case .create(let start, let stale, let delay):
                    if let stale { delete(stale) }
                    if delay > .zero {
                        do {
                            try await consumer.clock.sleep(for: delay, tolerance: nil)
                        } catch {
                            throw JetStreamError(.cancelled, "the ordered consumer was cancelled")
                        }
                    }
                    do {
                        let created = try await consumer.jetStream.createOrderedConsumer(
                            on: consumer.stream, start: start, configuration: consumer.configuration)
                        reconnectsSeen = consumer.jetStream.client.statistics.reconnects
                        machine.created(created.name, pending: created.pending)
                    } catch {
                        machine.createFailed(error)
                    }
                case .fetch(let name, let batch):
                    do {
                        buffered = try await consumer.jetStream.fetch(
                            batch: batch, from: name, on: consumer.stream, expires: consumer.configuration.expires,
                            idleHeartbeat: consumer.configuration.idleHeartbeat, clock: consumer.clock)
                        machine.fetched()
                    } catch {
                        machine.fetchFailed(error)
                    }
                    // What the pull brought before a reconnect is handed out first (each delivery is checked);
                    // the consumer is replaced after it.
                    let reconnects = consumer.jetStream.client.statistics.reconnects
                    if reconnects != reconnectsSeen {
                        reconnectsSeen = reconnects
                        machine.reconnected()
                    }
                }
            }
        }

        /// ``next()`` in the caller's isolation.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(JetStreamError)
            -> JetStreamMessage?
        {
            try await next()
        }

        /// Deletes the consumer in use, if any; iterating again creates a new one where this one stopped. Without
        /// it, the server deletes an abandoned consumer after its inactive threshold.
        public mutating func finish() async {
            guard let name = machine.consumer else { return }
            machine.released()
            buffered.removeAll()
            try? await consumer.jetStream.deleteConsumer(name, on: consumer.stream)
        }

        /// Deletes a consumer given up without waiting for the answer (it may be gone with its server already).
        private func delete(_ name: String) {
            let jetStream = consumer.jetStream
            let stream = consumer.stream
            Task { try? await jetStream.deleteConsumer(name, on: stream) }
        }
    }
}

extension JetStreamContext {
    /// An ordered consumer of `stream`: every message (of the filter subject) exactly once, in stream order.
    ///
    /// Nothing is sent until the first `next()` of an iterator, which creates the first consumer. Each iterator
    /// replays on its own.
    ///
    /// - Parameters:
    ///   - stream: The stream to read.
    ///   - configuration: The filter, where to start, pull sizes and heartbeats, whether to end when caught up.
    public func orderedConsumer(
        on stream: String,
        configuration: OrderedConsumerConfiguration = OrderedConsumerConfiguration()
    ) -> JetStreamOrderedConsumer {
        JetStreamOrderedConsumer(
            jetStream: self, stream: stream, configuration: configuration, clock: ContinuousClock())
    }

    /// ``orderedConsumer(on:configuration:)`` with its pulls' watchdog and its pauses on `clock` (tests).
    func orderedConsumer(
        on stream: String,
        configuration: OrderedConsumerConfiguration,
        clock: any Clock<Duration>
    ) -> JetStreamOrderedConsumer {
        JetStreamOrderedConsumer(jetStream: self, stream: stream, configuration: configuration, clock: clock)
    }

    /// Creates an ephemeral ordered consumer (named, so a permission can match its create subject) on `stream`.
    func createOrderedConsumer(
        on stream: String,
        start: OrderedConsumerStateMachine.Start,
        configuration: OrderedConsumerConfiguration
    ) async throws(JetStreamError) -> (name: String, pending: UInt64) {
        try Self.checkName(stream, "stream")
        let name = NATSNUID.next()
        let deliverPolicy: ConsumerConfiguration.DeliverPolicy =
            switch start {
            case .policy(let policy): policy
            case .sequence(let sequence): .startSequence(sequence)
            }
        let body = OrderedConsumerCreateRequest(
            streamName: stream,
            configuration: .init(
                name: name, filterSubject: configuration.filterSubject, deliverPolicy: deliverPolicy,
                inactiveThreshold: configuration.inactiveThreshold))
        let operation = try createOperation(stream: stream, consumer: name, filter: configuration.filterSubject)
        let created = try await request(
            operation, body: JetStreamJSON.encode(body), as: OrderedConsumerCreateResponse.self)
        return (created.name, created.pending)
    }
}

/// The body of an ordered consumer's create request: ephemeral (`name`, no `durable_name`), no acks, one delivery,
/// in memory, one replica.
struct OrderedConsumerCreateRequest: Encodable {
    struct Configuration: Encodable {
        var name: String
        var filterSubject: String?
        var deliverPolicy: ConsumerConfiguration.DeliverPolicy
        var inactiveThreshold: Duration

        private enum CodingKeys: String, CodingKey {
            case name
            case filterSubject = "filter_subject"
            case deliverPolicy = "deliver_policy"
            case startSequence = "opt_start_seq"
            case ackPolicy = "ack_policy"
            case maxDeliver = "max_deliver"
            case memoryStorage = "mem_storage"
            case replicas = "num_replicas"
            case inactiveThreshold = "inactive_threshold"
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encodeIfPresent(filterSubject, forKey: .filterSubject)
            try deliverPolicy.encode(into: &container, policy: .deliverPolicy, startSequence: .startSequence)
            try container.encode(ConsumerConfiguration.AckPolicy.none, forKey: .ackPolicy)
            try container.encode(1, forKey: .maxDeliver)
            try container.encode(true, forKey: .memoryStorage)
            try container.encode(1, forKey: .replicas)
            try container.encodeNanoseconds(inactiveThreshold, forKey: .inactiveThreshold)
        }
    }

    var streamName: String
    var configuration: Configuration

    private enum CodingKeys: String, CodingKey {
        case streamName = "stream_name"
        case configuration = "config"
    }
}

/// What the create answer of an ordered consumer is read for: its name and how many messages it has.
struct OrderedConsumerCreateResponse: Decodable {
    var name: String
    var pending: UInt64

    private enum CodingKeys: String, CodingKey {
        case name
        case pending = "num_pending"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.decode(String.self, forKey: .name)
        pending = try container.decodeIfPresent(UInt64.self, forKey: .pending) ?? 0
    }
}
