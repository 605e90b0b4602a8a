// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// The decisions of an ordered consumer (NATS ADR-17), apart from any I/O: which consumer to create and where it
// starts, what to fetch, which delivery to hand out, and when to drop the consumer and start a new one from the last
// delivered stream sequence + 1. The iterator (JetStreamOrderedConsumer) carries out the steps it answers.

/// The state of an ordered consumer's replay: the last delivered stream sequence and, for the consumer in use, its
/// last consumer sequence. Pure: the iterator tells it what happened and does what it answers.
struct OrderedConsumerStateMachine: Sendable {
    /// Where a new consumer starts.
    enum Start: Sendable, Equatable {
        /// The first consumer, or a new one before anything was delivered: the caller's deliver policy.
        case policy(ConsumerConfiguration.DeliverPolicy)
        /// After a reset: the stream sequence after the last one delivered.
        case sequence(UInt64)
    }

    /// What the iterator does next.
    enum Step: Sendable, Equatable {
        /// Create a consumer starting at `start`; delete `replacing` (the consumer given up, if any) first, without
        /// waiting for the answer. Wait `after` before creating it (zero the first time after a failure).
        case create(Start, replacing: String?, after: Duration)
        /// Pull up to `batch` messages from `consumer`.
        case fetch(consumer: String, batch: Int)
        /// The replay is complete (caught up, with ``endWhenCaughtUp``); delete `consumer`.
        case end(consumer: String?)
        /// The replay failed.
        case fail(JetStreamError)

        /// Equal steps; two failures are equal when their codes and messages are.
        static func == (lhs: Step, rhs: Step) -> Bool {
            switch (lhs, rhs) {
            case (.create(let start, let stale, let delay), .create(let otherStart, let otherStale, let otherDelay)):
                start == otherStart && stale == otherStale && delay == otherDelay
            case (.fetch(let consumer, let batch), .fetch(let otherConsumer, let otherBatch)):
                consumer == otherConsumer && batch == otherBatch
            case (.end(let consumer), .end(let otherConsumer)):
                consumer == otherConsumer
            case (.fail(let error), .fail(let other)):
                error.code == other.code && error.message == other.message
            default:
                false
            }
        }
    }

    /// What to do with one delivery.
    enum Delivery: Sendable, Equatable {
        /// Hand it out: it is the next one in order.
        case deliver
        /// Drop it: from a consumer given up, or already delivered.
        case skip
        /// A gap in the consumer sequence: drop it and what else was fetched with it; the next step creates a new
        /// consumer.
        case reset
    }

    private enum Phase: Sendable {
        /// No consumer yet, or the last one was given up (its name, to delete it).
        case needsConsumer(stale: String?)
        /// A consumer is in use.
        case active(String)
        /// Caught up (with ``endWhenCaughtUp``).
        case ended
        /// Failed for good.
        case failed(JetStreamError)
    }

    /// The deliver policy of the first consumer.
    let deliverPolicy: ConsumerConfiguration.DeliverPolicy
    /// The most messages one fetch asks for.
    let batch: Int
    /// Whether the replay ends once the consumer has nothing more pending.
    let endWhenCaughtUp: Bool
    /// How many failures in a row (a failed create, a failed fetch) end the replay; `nil` for no limit.
    let maxConsecutiveFailures: Int?

    private var phase: Phase = .needsConsumer(stale: nil)
    /// The stream sequence of the last message handed out; 0 before the first.
    private(set) var lastStreamSequence: UInt64 = 0
    /// The consumer sequence of the last message of the current consumer taken in; 0 for a new consumer.
    private(set) var lastConsumerSequence: UInt64 = 0
    /// Messages the current consumer still has after the last one taken in (from the create answer, then from each
    /// delivery); `nil` when not known.
    private(set) var pending: UInt64?
    /// How many times a consumer was given up and replaced.
    private(set) var resets = 0
    /// Failures since the last successful fetch.
    private(set) var consecutiveFailures = 0
    /// Whether the consumer in use is to be replaced once what was fetched from it is taken in (a reconnect).
    private(set) var replaceRequested = false

    init(
        deliverPolicy: ConsumerConfiguration.DeliverPolicy,
        batch: Int,
        endWhenCaughtUp: Bool,
        maxConsecutiveFailures: Int?
    ) {
        self.deliverPolicy = deliverPolicy
        self.batch = max(1, batch)
        self.endWhenCaughtUp = endWhenCaughtUp
        self.maxConsecutiveFailures = maxConsecutiveFailures
    }

    /// The consumer in use, if any.
    var consumer: String? {
        if case .active(let name) = phase { return name }
        return nil
    }

    /// Where a new consumer starts: after the last delivered message, or by the caller's policy before the first.
    var start: Start {
        lastStreamSequence == 0 ? .policy(deliverPolicy) : .sequence(lastStreamSequence + 1)
    }

    /// The next step. A fetch asks for what is known to be pending (up to ``batch``), and for one message when
    /// nothing is: a fetch returns when its batch is full, so it never waits for messages that are not there.
    mutating func nextStep() -> Step {
        switch phase {
        case .ended:
            return .end(consumer: nil)
        case .failed(let error):
            return .fail(error)
        case .needsConsumer(let stale):
            return .create(start, replacing: stale, after: Self.retryDelay(afterFailures: consecutiveFailures))
        case .active(let name):
            if replaceRequested {
                giveUp()
                return nextStep()
            }
            if endWhenCaughtUp, pending == 0 {
                phase = .ended
                return .end(consumer: name)
            }
            let wanted = pending.map { $0 == 0 ? 1 : Int(clamping: min($0, UInt64(batch))) } ?? batch
            return .fetch(consumer: name, batch: wanted)
        }
    }

    /// The consumer `name` was created; it has `pending` messages for this replay.
    mutating func created(_ name: String, pending: UInt64) {
        phase = .active(name)
        lastConsumerSequence = 0
        self.pending = pending
    }

    /// Creating a consumer failed: try again (``nextStep()`` waits first), or fail when `error` cannot pass
    /// (`streamNotFound`, a refused configuration, a closed client) or too many failures came in a row.
    mutating func createFailed(_ error: JetStreamError) {
        fail(error, orElse: .needsConsumer(stale: staleName))
    }

    /// A delivery of `metadata`: the next one in order is handed out; one of a consumer given up, or one already
    /// handed out, is dropped; a gap in the consumer sequence gives the consumer up.
    mutating func received(_ metadata: JetStreamMessageMetadata) -> Delivery {
        guard case .active(let name) = phase, metadata.consumer == name else { return .skip }
        if metadata.consumerSequence <= lastConsumerSequence { return .skip }
        guard metadata.consumerSequence == lastConsumerSequence + 1, metadata.streamSequence > lastStreamSequence
        else {
            giveUp()
            return .reset
        }
        lastConsumerSequence = metadata.consumerSequence
        lastStreamSequence = metadata.streamSequence
        pending = metadata.pending
        consecutiveFailures = 0
        return .deliver
    }

    /// A fetch ended normally (with or without messages).
    mutating func fetched() {
        consecutiveFailures = 0
    }

    /// A fetch failed: a missed heartbeat, a deleted or unknown consumer, no answer, a refused pull give the
    /// consumer up (the next step replaces it); a cancelled task, a closed client or a missing stream end the
    /// replay, and so do too many failures in a row.
    mutating func fetchFailed(_ error: JetStreamError) {
        guard case .active = phase else { return }
        resets += 1
        pending = nil
        replaceRequested = false
        fail(error, orElse: .needsConsumer(stale: staleName))
    }

    /// The client reconnected: the consumer may be gone with the server it lived on (it is kept in memory), and
    /// deliveries may have been lost with the old connection. Once what was fetched is taken in (each delivery still
    /// checked), the next step replaces it.
    mutating func reconnected() {
        guard case .active = phase else { return }
        replaceRequested = true
    }

    /// The caller deleted the consumer in use: the next step creates another where this one stopped.
    mutating func released() {
        guard case .active = phase else { return }
        phase = .needsConsumer(stale: nil)
        pending = nil
        replaceRequested = false
    }

    private var staleName: String? {
        switch phase {
        case .active(let name): name
        case .needsConsumer(let stale): stale
        case .ended, .failed: nil
        }
    }

    /// Counts a failure: `otherwise` when `error` is transient and the limit is not reached, failed for good else.
    private mutating func fail(_ error: JetStreamError, orElse otherwise: Phase) {
        consecutiveFailures += 1
        let exhausted = maxConsecutiveFailures.map { consecutiveFailures >= $0 } ?? false
        phase = Self.isTransient(error) && !exhausted ? otherwise : .failed(error)
    }

    private mutating func giveUp() {
        phase = .needsConsumer(stale: staleName)
        pending = nil
        replaceRequested = false
        resets += 1
    }

    /// Whether a new consumer may get past `error`.
    static func isTransient(_ error: JetStreamError) -> Bool {
        switch error.code {
        case .missedHeartbeat, .consumerDeleted, .consumerNotFound, .timeout, .pullRefused, .notEnabled,
            .noResponders:
            true
        default:
            false
        }
    }

    /// The pause before creating a consumer after `failures` failures in a row: none after one (a reset replaces
    /// its consumer at once), then 250 ms doubling to at most 5 s.
    static func retryDelay(afterFailures failures: Int) -> Duration {
        guard failures > 1 else { return .zero }
        let doublings = min(failures - 2, 5)
        return min(.milliseconds(250 * (1 << doublings)), .seconds(5))
    }
}
