// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import NATSClient
import VettIDClient

/// A subscription that outlives connections: a ``NatsConnectionManager`` re-creates it on every new connection
/// (token swaps and re-authentication), and `NATSClient` restores it after a server restart. Copies that arrive on
/// two connections while a swap overlaps them are delivered once (see ``NatsMessageDeduplicator``).
///
/// The sequence ends after ``unsubscribe()``, when the iterating task is cancelled, or when the manager
/// disconnects. Iterate it from one task.
public struct NatsManagedSubscription: AsyncSequence, Sendable {
    /// The element type.
    public typealias Element = NATSMessage

    /// The subscribed subject (may contain wildcards).
    public let subject: String
    /// The queue group, if any.
    public let queue: String?
    let id: UInt64
    let stream: AsyncStream<NATSMessage>
    let connection: NatsConnection

    /// The iterator.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: AsyncStream<NATSMessage>.AsyncIterator

        /// The next message, or `nil` when the subscription has ended.
        public mutating func next() async -> NATSMessage? {
            await base.next()
        }

        /// The next message, in the caller's isolation.
        public mutating func next(isolation actor: isolated (any Actor)?) async -> NATSMessage? {
            await base.next(isolation: actor)
        }
    }

    /// Creates the iterator.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: stream.makeAsyncIterator())
    }

    /// Ends the subscription on every connection; buffered messages are still delivered, then the sequence ends.
    public func unsubscribe() {
        connection.removeSubscription(id)
    }

    /// Messages dropped because the consumer fell more than the pending limit behind.
    public var droppedMessages: Int { connection.droppedMessages(id) }
}
