// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import NIOCore

/// A subscription: an asynchronous sequence of the messages delivered to it.
///
/// The sequence ends after ``unsubscribe()``, after the auto-unsubscribe count is reached, on drain, or when
/// the client closes. Cancelling the task iterating it unsubscribes. Iterate it from one task only; to share
/// its messages among several tasks (a pool of handlers, each taking the next message when it is free), call
/// ``nextMessage()`` from each of them instead.
public struct NATSSubscription: AsyncSequence, Sendable {
    /// The element type.
    public typealias Element = NATSMessage

    /// The subscription id used on the wire.
    public let sid: UInt64
    /// The subscribed subject (may contain wildcards).
    public let subject: String
    /// The queue group, if any.
    public let queue: String?
    private let messages: NATSMessageQueue
    private let core: NATSConnectionCore
    private let dropCounter: NATSDropCounter

    init(
        sid: UInt64,
        subject: String,
        queue: String?,
        messages: NATSMessageQueue,
        core: NATSConnectionCore,
        dropCounter: NATSDropCounter
    ) {
        self.sid = sid
        self.subject = subject
        self.queue = queue
        self.messages = messages
        self.core = core
        self.dropCounter = dropCounter
    }

    /// The iterator. It takes every buffered message at once and hands them out without locking; the emptied
    /// buffer goes back to the subscription for the next batch.
    public struct AsyncIterator: AsyncIteratorProtocol {
        @usableFromInline let queue: NATSMessageQueue
        @usableFromInline var batch = CircularBuffer<NATSMessage>()

        /// The next message, or `nil` when the subscription has ended.
        @inlinable
        public mutating func next() async -> NATSMessage? {
            if let message = batch.popFirst() { return message }
            guard await queue.nextBatch(into: &batch) else { return nil }
            return batch.popFirst()
        }

        /// The next message, running in the caller's isolation (SE-0421): a `for await` loop on an actor
        /// hops executors only when it must wait for a new batch, not once per message. Inlinable, so a message
        /// already taken with its batch is handed out in the caller's loop without a call into the client.
        @inlinable
        public mutating func next(isolation actor: isolated (any Actor)?) async -> NATSMessage? {
            if let message = batch.popFirst() { return message }
            guard await queue.nextBatch(into: &batch) else { return nil }
            return batch.popFirst()
        }
    }

    /// Creates the iterator.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(queue: messages)
    }

    /// The next message for whichever of several consumer tasks asks first, or `nil` once the subscription has
    /// ended and every buffered message has been taken.
    ///
    /// Each message goes to exactly one caller. A task that asks while messages are buffered takes the next one
    /// at once, without suspending; tasks that wait are served in the order they asked. Use it to run a fixed
    /// pool of handlers over one subscription without a task per message:
    ///
    /// ```swift
    /// await withDiscardingTaskGroup { group in
    ///     for _ in 0..<8 {
    ///         group.addTask {
    ///             while let message = await subscription.nextMessage() { await handle(message) }
    ///         }
    ///     }
    /// }
    /// ```
    ///
    /// A read from the socket wakes one waiting task, however many messages it brought: the woken task takes the
    /// next buffered message without suspending when it asks again, so a burst costs a task switch rather than one
    /// per message. Messages still buffered a millisecond later, while tasks wait (the woken ones are busy in slow
    /// handlers), are handed to more of the waiting tasks, about one per core each millisecond.
    ///
    /// Cancelling a waiting task returns `nil` to that task only; the subscription goes on (unlike cancelling
    /// the task that iterates the sequence, which unsubscribes).
    nonisolated(nonsending) public func nextMessage() async -> NATSMessage? {
        await messages.nextMessage()
    }

    /// Every message buffered now, or the next read's when none is (`nil` at the end): for a single consumer that
    /// forwards messages elsewhere, one hand-off per read instead of one per message (a JetStream fetch).
    func nextBatch() async -> CircularBuffer<NATSMessage>? {
        await messages.nextBatch()
    }

    /// Stops the subscription now; buffered messages are still delivered, then the sequence ends.
    public func unsubscribe() {
        core.unsubscribe(sid: sid, after: nil)
    }

    /// Unsubscribes on the server, lets the messages it already sent arrive (a PING/PONG round trip), then
    /// ends the sequence after them. The connection stays open.
    public func drain(timeout: Duration = .seconds(30)) async throws {
        try await core.drainSubscription(sid: sid, timeout: timeout)
    }

    /// Ends the subscription automatically after `count` messages in total (also across reconnects).
    public func unsubscribe(after count: Int) {
        core.unsubscribe(sid: sid, after: Swift.max(count, 0))
    }

    /// Tasks waiting in ``nextMessage()`` (for tests).
    var waitingConsumers: Int { messages.messageWaiterCount }

    /// Messages dropped because the consumer did not keep up (still readable after the subscription ended).
    public var droppedMessages: Int { dropCounter.value }
}
