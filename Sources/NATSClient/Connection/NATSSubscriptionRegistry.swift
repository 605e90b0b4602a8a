// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// The subscriptions of one connection as a pure value: subscription ids, where each one's messages go, the
// auto-unsubscribe counts, slow-consumer episodes, and the SUB/UNSUB lines that restore them on a new
// connection. The connection core keeps it under its lock and carries out what it returns.

import NIOCore

/// Where a subscription's messages go: ``NATSMessageQueue`` for a ``NATSSubscription``, a JetStream fetch's
/// ``JetStreamPullInbox``, a recorder in tests. Called under the connection's lock, on the event loop.
protocol NATSMessageSink: AnyObject, Sendable {
    /// Offers one message; says whether it was stored, dropped (buffer full) or the sink has ended.
    func enqueue(_ message: NATSMessage) -> NATSMessageQueue.EnqueueResult
    /// The read that brought the messages `enqueue` asked a wake for is complete: hand them to the consumer. Returns
    /// whether to call again with `followUp` after ``NATSMessageQueue/followUpDelay``.
    func wake(followUp: Bool) -> Bool
    /// No more messages will come.
    func finish()
}

extension NATSMessageQueue: NATSMessageSink {}

struct NATSSubscriptionRegistry {
    typealias Sink = any NATSMessageSink

    struct Entry {
        let subject: String
        let queue: String?
        /// `nil` for the shared request inbox, whose messages the request multiplexer routes.
        let sink: Sink?
        let dropCounter: NATSDropCounter?
        var delivered = 0
        /// Auto-unsubscribe after this many messages in all.
        var max: Int?
        /// Dropping since the last message that was stored; one slow-consumer report per episode.
        var inSlowEpisode = false

        /// Hands `message` to the sink and counts it; also returns the sink when the auto-unsubscribe count is
        /// reached (the caller removes the entry and finishes the sink).
        mutating func deliver(_ message: NATSMessage, sid: UInt64) -> (Delivery, finished: Sink?) {
            guard let sink else { return (.requestInbox, nil) }
            delivered += 1
            var wake: Sink?
            var slowConsumer: NATSError?
            switch sink.enqueue(message) {
            case .dropped:
                dropCounter?.increment()
                if !inSlowEpisode {
                    inSlowEpisode = true
                    slowConsumer = NATSError(.slowConsumer, "subscription \(sid) on \(subject) is dropping messages")
                }
            case .enqueued(let needsWake):
                inSlowEpisode = false
                if needsWake { wake = sink }
            case .terminated:
                break
            }
            let finished = max.map { delivered >= $0 } == true ? sink : nil
            return (.delivered(wake: wake, slowConsumer: slowConsumer), finished)
        }
    }

    /// What became of one delivered message.
    enum Delivery {
        /// No such subscription (it ended before the server saw the UNSUB).
        case unknown
        /// A message for the shared request inbox.
        case requestInbox
        /// Given to the subscription's sink. `wake`: the sink to wake at the end of the read batch;
        /// `slowConsumer`: a new slow-consumer episode began. A subscription that reached its
        /// auto-unsubscribe count is removed and its sink finished.
        case delivered(wake: Sink?, slowConsumer: NATSError?)
    }

    /// What an unsubscription did.
    enum Unsubscription {
        /// The subscription stays until it has received `max` messages in all.
        case limited(max: Int)
        /// The subscription is gone; its sink (if any) must be finished.
        case removed(Sink?)
    }

    private(set) var entries: [UInt64: Entry] = [:]
    private var nextSID: UInt64 = 1

    var count: Int { entries.count }

    func contains(_ sid: UInt64) -> Bool { entries[sid] != nil }

    /// Adds a subscription with the next id; `makeSink` gets that id (a sink may unsubscribe itself by it).
    mutating func add<Made: NATSMessageSink>(
        subject: String,
        queue: String?,
        dropCounter: NATSDropCounter?,
        makeSink: (UInt64) -> Made
    ) -> (sid: UInt64, sink: Made) {
        let sid = nextSID
        nextSID += 1
        let sink = makeSink(sid)
        entries[sid] = Entry(subject: subject, queue: queue, sink: sink, dropCounter: dropCounter)
        return (sid, sink)
    }

    /// Adds the shared request inbox's wildcard subscription; its messages are ``Delivery/requestInbox``.
    mutating func addRequestInbox(subject: String) -> UInt64 {
        let sid = nextSID
        nextSID += 1
        entries[sid] = Entry(subject: subject, queue: nil, sink: nil, dropCounter: nil)
        return sid
    }

    /// Hands `message` to subscription `sid`; counts it, tracks slow-consumer episodes and the
    /// auto-unsubscribe limit (a subscription that reached it is removed and its sink finished).
    ///
    /// One hash lookup per message, and the entry is updated where it is stored (through the dictionary's values
    /// at the found index), not copied out and written back: a copy retained and released each of its references.
    mutating func deliver(_ message: NATSMessage, to sid: UInt64) -> Delivery {
        guard let index = entries.index(forKey: sid) else { return .unknown }
        let (delivery, finished) = entries.values[index].deliver(message, sid: sid)
        if let finished {
            entries.remove(at: index)
            finished.finish()
        }
        return delivery
    }

    /// Unsubscribes `sid` now, or after `max` messages in all when fewer have arrived; `nil` if unknown.
    mutating func unsubscribe(_ sid: UInt64, after max: Int?) -> Unsubscription? {
        guard var entry = entries[sid] else { return nil }
        if let max, entry.delivered < max {
            entry.max = max
            entries[sid] = entry
            return .limited(max: max)
        }
        entries[sid] = nil
        return .removed(entry.sink)
    }

    /// Removes `sid`; returns its sink (not finished).
    mutating func remove(_ sid: UInt64) -> Sink? {
        entries.removeValue(forKey: sid)?.sink
    }

    /// SUB (and UNSUB with what is left of a limit) for every subscription, oldest first, for a new connection.
    func resubscribeCommands() -> [NATSClientCommand] {
        var commands: [NATSClientCommand] = []
        commands.reserveCapacity(entries.count)
        for (sid, entry) in entries.sorted(by: { $0.key < $1.key }) {
            commands.append(.subscribe(subject: entry.subject, queue: entry.queue, sid: sid))
            if let max = entry.max {
                commands.append(.unsubscribe(sid: sid, max: Swift.max(max - entry.delivered, 1)))
            }
        }
        return commands
    }

    /// The ids of the subscriptions that are not the request inbox, oldest first.
    var subscriberIDs: [UInt64] { entries.filter { $0.value.sink != nil }.keys.sorted() }

    /// Removes every subscription but the request inbox; returns their sinks (not finished).
    mutating func removeSubscribers() -> [Sink] {
        let sinks = entries.values.compactMap(\.sink)
        entries = entries.filter { $0.value.sink == nil }
        return sinks
    }

    /// Removes everything; returns the sinks (not finished).
    mutating func removeAll() -> [Sink] {
        defer { entries.removeAll() }
        return entries.values.compactMap(\.sink)
    }
}
