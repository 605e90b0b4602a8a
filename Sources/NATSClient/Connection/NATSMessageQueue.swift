// The per-subscription buffer between the event loop and the consuming task. Messages are appended during
// a read; the waiting consumer is woken once per read batch (at channelReadComplete), and it takes every
// buffered message in one lock acquisition. This avoids a task wake-up per message.

import NIOConcurrencyHelpers
import NIOCore

final class NATSMessageQueue: Sendable {
    enum EnqueueResult {
        /// Stored; `needsWake` is true the first time a waiting consumer must be woken for this batch.
        case enqueued(needsWake: Bool)
        /// The buffer is at its limit: the message was dropped (slow consumer).
        case dropped
        /// The queue is finished.
        case terminated
    }

    private struct State {
        var buffer = CircularBuffer<NATSMessage>()
        var waiter: UnsafeContinuation<CircularBuffer<NATSMessage>?, Never>?
        var finished = false
        var wakePending = false
    }

    private let state = NIOLockedValueBox(State())
    private let limit: Int
    private let onCancel: @Sendable () -> Void

    init(limit: Int, onCancel: @escaping @Sendable () -> Void) {
        self.limit = Swift.max(limit, 1)
        self.onCancel = onCancel
    }

    /// Whether a consumer is suspended waiting for messages (for tests).
    var hasWaiter: Bool { state.withLockedValue { $0.waiter != nil } }

    func enqueue(_ message: NATSMessage) -> EnqueueResult {
        state.withLockedValue { state in
            if state.finished { return .terminated }
            if state.buffer.count >= limit { return .dropped }
            state.buffer.append(message)
            if state.waiter != nil, !state.wakePending {
                state.wakePending = true
                return .enqueued(needsWake: true)
            }
            return .enqueued(needsWake: false)
        }
    }

    /// Hands everything buffered to a waiting consumer.
    func wake() {
        let resumption: (UnsafeContinuation<CircularBuffer<NATSMessage>?, Never>, CircularBuffer<NATSMessage>)? =
            state.withLockedValue { state in
                state.wakePending = false
                guard let waiter = state.waiter, !state.buffer.isEmpty else { return nil }
                state.waiter = nil
                let batch = state.buffer
                state.buffer = CircularBuffer()
                return (waiter, batch)
            }
        if let (waiter, batch) = resumption { waiter.resume(returning: batch) }
    }

    /// No more messages: the consumer gets what is buffered, then the end.
    func finish() {
        let resumption: (UnsafeContinuation<CircularBuffer<NATSMessage>?, Never>, CircularBuffer<NATSMessage>)? =
            state.withLockedValue { state in
                state.finished = true
                guard let waiter = state.waiter else { return nil }
                state.waiter = nil
                let batch = state.buffer
                state.buffer = CircularBuffer()
                return (waiter, batch)
            }
        if let (waiter, batch) = resumption { waiter.resume(returning: batch.isEmpty ? nil : batch) }
    }

    private func cancel() {
        let waiter: UnsafeContinuation<CircularBuffer<NATSMessage>?, Never>? = state.withLockedValue { state in
            let alreadyFinished = state.finished
            state.finished = true
            state.buffer.removeAll()
            let waiter = state.waiter
            state.waiter = nil
            return alreadyFinished && waiter == nil ? nil : waiter
        }
        waiter?.resume(returning: nil)
        onCancel()
    }

    /// The next batch of messages, or `nil` at the end.
    func nextBatch() async -> CircularBuffer<NATSMessage>? {
        enum Immediate {
            case batch(CircularBuffer<NATSMessage>)
            case end
            case wait
        }
        let immediate: Immediate = state.withLockedValue { state in
            if !state.buffer.isEmpty {
                let batch = state.buffer
                state.buffer = CircularBuffer()
                return .batch(batch)
            }
            return state.finished ? .end : .wait
        }
        switch immediate {
        case .batch(let batch): return batch
        case .end: return nil
        case .wait: break
        }
        return await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<CircularBuffer<NATSMessage>?, Never>) in
                let now: CircularBuffer<NATSMessage>?? = state.withLockedValue { state in
                    if !state.buffer.isEmpty {
                        let batch = state.buffer
                        state.buffer = CircularBuffer()
                        return .some(batch)
                    }
                    if state.finished { return .some(nil) }
                    state.waiter = continuation
                    return .none
                }
                if let now { continuation.resume(returning: now) }
            }
        } onCancel: {
            self.cancel()
        }
    }
}
