// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// The per-subscription buffer between the event loop and the consuming tasks. Messages are appended during
// a read; waiting consumers are woken once per read batch (at channelReadComplete). The subscription's
// iterator takes every buffered message in one lock acquisition (no task wake-up per message); consumers
// sharing the subscription through `nextMessage()` take one message each, and a busy one takes the next
// buffered message without suspending. A read wakes one of those consumers: the rest of a burst is taken by it as
// it comes back, or, if it is still busy a moment later (a slow handler), handed to more waiting consumers by
// follow-up wakes, up to `followUpLimit` (about one per core) each.

import NIOConcurrencyHelpers
public import NIOCore

@usableFromInline
final class NATSMessageQueue: Sendable {
    enum EnqueueResult {
        /// Stored; `needsWake` is true the first time a waiting consumer must be woken for this batch.
        case enqueued(needsWake: Bool)
        /// The buffer is at its limit: the message was dropped (slow consumer).
        case dropped
        /// The queue is finished.
        case terminated
    }

    private typealias BatchWaiter = UnsafeContinuation<CircularBuffer<NATSMessage>?, Never>
    private typealias MessageWaiter = UnsafeContinuation<NATSMessage?, Never>

    /// Continuations to resume once the lock is released.
    private struct Resumptions {
        var batch: (BatchWaiter, CircularBuffer<NATSMessage>?)?
        var messages: [(MessageWaiter, NATSMessage?)] = []

        func resume() {
            if let (waiter, batch) = batch { waiter.resume(returning: batch) }
            for (waiter, message) in messages { waiter.resume(returning: message) }
        }
    }

    private struct State {
        var buffer = CircularBuffer<NATSMessage>()
        /// The iterator, waiting for a batch.
        var waiter: BatchWaiter?
        /// Tasks waiting in `nextMessage()`, first come first served.
        var messageWaiters = CircularBuffer<(id: UInt64, waiter: MessageWaiter)>()
        var nextWaiterID: UInt64 = 0
        var finished = false
        var wakePending = false
        /// A follow-up wake is scheduled (messages were left for consumers that were still busy).
        var followUpPending = false

        var hasWaiter: Bool { waiter != nil || !messageWaiters.isEmpty }

        /// The storage of a batch the iterator has emptied, for the next ``takeBuffer()``.
        var spare: CircularBuffer<NATSMessage>?

        /// Takes everything buffered. The next buffer is the iterator's emptied storage if it gave it back (no
        /// allocation; its capacity fits the batches it held), else a new one with room for as many messages as
        /// this batch held: a fresh empty one grew by doubling (copying every message) on every read in a steady
        /// stream.
        mutating func takeBuffer() -> CircularBuffer<NATSMessage> {
            let batch = buffer
            buffer = spare.take() ?? CircularBuffer(initialCapacity: Swift.max(batch.count, 16))
            return batch
        }

        /// Hands buffered messages to the waiting consumers: everything to the iterator if it waits, else one
        /// message per waiting `nextMessage()`, to `limit` of them at most. After `finish`, every waiting consumer
        /// gets a message or the end.
        mutating func handOut(limit: Int = .max) -> Resumptions {
            var resumptions = Resumptions()
            if let waiter, !buffer.isEmpty || finished {
                self.waiter = nil
                let batch = takeBuffer()
                resumptions.batch = (waiter, batch.isEmpty ? nil : batch)
            }
            var handed = 0
            while handed < limit || finished, !messageWaiters.isEmpty, let message = buffer.popFirst() {
                resumptions.messages.append((messageWaiters.removeFirst().waiter, message))
                handed += 1
            }
            if finished {
                while let (_, waiter) = messageWaiters.popFirst() { resumptions.messages.append((waiter, nil)) }
            }
            return resumptions
        }
    }

    private let state = NIOLockedValueBox(State())
    private let limit: Int
    private let wakeLimit: Int
    private let followUpLimit: Int
    private let onCancel: @Sendable () -> Void

    /// Consumers in ``nextMessage()`` woken by one read at most. Waking one per message (64 handler lanes, a
    /// burst of requests) costs a task switch per message, where a woken consumer takes the next buffered message
    /// without one; and a consumer that takes a burst alone switches less than two that share it, so one is woken,
    /// not one per core (docs/benchmarks.md).
    static let defaultWakeLimit = 1

    /// Consumers a follow-up wake resumes at most: one per core, so a burst of slow handlers (waiting on I/O)
    /// spreads over the waiting consumers at this many per ``followUpDelay``.
    static let defaultFollowUpLimit = Swift.max(System.coreCount, 1)

    /// How long messages left by a wake at its limit wait for the woken consumers to come back before more
    /// waiting consumers are woken.
    static let followUpDelay = TimeAmount.milliseconds(1)

    init(
        limit: Int, wakeLimit: Int = NATSMessageQueue.defaultWakeLimit,
        followUpLimit: Int = NATSMessageQueue.defaultFollowUpLimit, onCancel: @escaping @Sendable () -> Void
    ) {
        self.limit = Swift.max(limit, 1)
        self.wakeLimit = Swift.max(wakeLimit, 1)
        self.followUpLimit = Swift.max(followUpLimit, 1)
        self.onCancel = onCancel
    }

    /// Whether a consumer is suspended waiting for messages (for tests).
    var hasWaiter: Bool { state.withLockedValue { $0.hasWaiter } }

    /// The capacities of the buffer messages are appended to and of the spare (for tests).
    var capacities: (buffer: Int, spare: Int?) { state.withLockedValue { ($0.buffer.capacity, $0.spare?.capacity) } }

    /// How many tasks wait in ``nextMessage()`` (for tests).
    var messageWaiterCount: Int { state.withLockedValue { $0.messageWaiters.count } }

    func enqueue(_ message: NATSMessage) -> EnqueueResult {
        state.withLockedValue { state in
            if state.finished { return .terminated }
            if state.buffer.count >= limit { return .dropped }
            state.buffer.append(message)
            if state.hasWaiter, !state.wakePending {
                state.wakePending = true
                return .enqueued(needsWake: true)
            }
            return .enqueued(needsWake: false)
        }
    }

    /// Hands what is buffered to the waiting consumers, waking ``nextMessage()`` callers up to the wake limit (the
    /// follow-up limit for a follow-up).
    ///
    /// - Parameter followUp: This is the follow-up wake the previous call asked for.
    /// - Returns: Whether the caller should call `wake(followUp: true)` after ``followUpDelay``: messages are
    ///   left for consumers that still wait (and no follow-up is scheduled yet).
    @discardableResult
    func wake(followUp: Bool = false) -> Bool {
        let (resumptions, scheduleFollowUp) = state.withLockedValue { state in
            state.wakePending = false
            if followUp { state.followUpPending = false }
            let resumptions = state.handOut(limit: followUp ? followUpLimit : wakeLimit)
            let left = !state.buffer.isEmpty && !state.messageWaiters.isEmpty && !state.followUpPending
            if left { state.followUpPending = true }
            return (resumptions, left)
        }
        resumptions.resume()
        return scheduleFollowUp
    }

    /// No more messages: the consumers get what is buffered, then the end.
    func finish() {
        state.withLockedValue { state in
            state.finished = true
            return state.handOut()
        }.resume()
    }

    /// The iterator's task was cancelled: the subscription ends and is unsubscribed.
    private func cancel() {
        state.withLockedValue { state in
            state.finished = true
            state.buffer.removeAll()
            return state.handOut()
        }.resume()
        onCancel()
    }

    /// The next batch of messages, or `nil` at the end (for tests; the iterator passes its own batch).
    func nextBatch() async -> CircularBuffer<NATSMessage>? {
        var batch = CircularBuffer<NATSMessage>(initialCapacity: 1)
        return await nextBatch(into: &batch) ? batch : nil
    }

    /// An empty batch the iterator holds while its own storage waits in the queue as the spare. Never written to:
    /// the iterator only pops, and popping an empty buffer writes nothing.
    private static let placeholderBatch = CircularBuffer<NATSMessage>(initialCapacity: 1)

    /// Replaces `batch` (the iterator's, which it has emptied) with the next batch of messages; `false` at the end.
    ///
    /// The emptied storage goes back to the queue: swapped for the buffered messages when there are some, kept as
    /// the spare of the next ``State/takeBuffer()`` while the iterator waits. Under load the iterator and the
    /// event loop pass two buffers back and forth instead of allocating one per batch.
    @usableFromInline
    func nextBatch(into batch: inout CircularBuffer<NATSMessage>) async -> Bool {
        enum Immediate {
            case taken
            case end
            case wait
        }
        assert(batch.isEmpty, "the iterator asks for a batch only once it has taken every message of the last one")
        let immediate: Immediate = state.withLockedValue { state in
            if !state.buffer.isEmpty {
                swap(&state.buffer, &batch)
                return .taken
            }
            if state.finished { return .end }
            if state.spare == nil {
                state.spare = batch
                batch = Self.placeholderBatch
            }
            return .wait
        }
        switch immediate {
        case .taken: return true
        case .end: return false
        case .wait: break
        }
        let next = await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: BatchWaiter) in
                let now: CircularBuffer<NATSMessage>?? = state.withLockedValue { state in
                    if !state.buffer.isEmpty { return .some(state.takeBuffer()) }
                    if state.finished { return .some(nil) }
                    state.waiter = continuation
                    return .none
                }
                if let now { continuation.resume(returning: now) }
            }
        } onCancel: {
            self.cancel()
        }
        guard let next else { return false }
        batch = next
        return true
    }

    /// The next message for one of several consumers, or `nil` at the end. A cancelled caller gets `nil`;
    /// the subscription goes on for the others.
    nonisolated(nonsending) func nextMessage() async -> NATSMessage? {
        enum Immediate {
            case message(NATSMessage)
            case end
            case wait(UInt64)
        }
        let immediate: Immediate = state.withLockedValue { state in
            if let message = state.buffer.popFirst() { return .message(message) }
            if state.finished { return .end }
            state.nextWaiterID &+= 1
            return .wait(state.nextWaiterID)
        }
        let id: UInt64
        switch immediate {
        case .message(let message): return message
        case .end: return nil
        case .wait(let waiterID): id = waiterID
        }
        return await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: MessageWaiter) in
                let now: NATSMessage?? = state.withLockedValue { state in
                    if let message = state.buffer.popFirst() { return .some(message) }
                    // The cancellation flag is set before the handler runs: checked under the lock, a
                    // cancellation either finds this waiter registered or is seen here.
                    if state.finished || Task.isCancelled { return .some(nil) }
                    state.messageWaiters.append((id, continuation))
                    return .none
                }
                if let now { continuation.resume(returning: now) }
            }
        } onCancel: {
            let waiter: MessageWaiter? = state.withLockedValue { state in
                guard let index = state.messageWaiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.messageWaiters.remove(at: index).waiter
            }
            waiter?.resume(returning: nil)
        }
    }
}
