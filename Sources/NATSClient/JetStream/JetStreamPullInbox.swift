// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// The reply subject of one pull, as the connection's sink: deliveries and statuses are sorted where the connection
// hands them over (on its event loop, under its lock), and the fetching task is woken only when it has something to
// do: the batch is complete, a status ended the pull, a reconnect, the watchdog's alarm, cancellation, the close.
// A fetch of 500 costs one hand-off between threads, not one per socket read (a task that forwarded each read into
// an AsyncStream cost two). With idle heartbeats the fetch is also woken for whatever it hears, once per read, so
// its watchdog moves.

import NIOConcurrencyHelpers

/// One pull's reply subject: what the fetch waiting on it learns when it wakes.
final class JetStreamPullInbox: NATSMessageSink {
    /// What arrived, and what happened, since the fetch last looked.
    struct Update {
        /// Stored messages, in the order they arrived.
        var deliveries: [NATSMessage] = []
        /// The status that ended the pull (`end` or `failure`), the first if several came.
        var ending: JetStreamPullStatus?
        /// A delivery or a status of this pull arrived.
        var heard = false
        /// The client connected again: this pull is lost.
        var reconnected = false
        /// The fetch's watchdog rang.
        var alarm = false
        /// The subscription or the client ended.
        var closed = false
        /// The fetching task was cancelled.
        var cancelled = false
    }

    /// Something that wakes the fetch other than what the server sends.
    enum Signal {
        case reconnected, alarm, cancelled
    }

    private struct State {
        var update = Update()
        /// Deliveries still missing for the batch; the fetch is woken when none is.
        var missing: Int
        /// The fetch has something to act on.
        var ready = false
        var waiter: UnsafeContinuation<Update, Never>?
        /// `enqueue` asked the connection for a ``wake(followUp:)`` at the end of this read.
        var wakePending = false
        /// The subscription ended: nothing more is taken in.
        var finished = false

        /// Takes what the fetch has not seen yet.
        mutating func take() -> Update {
            ready = false
            var taken = Update()
            swap(&taken, &update)
            return taken
        }
    }

    /// The reply subject.
    let subject: String
    /// Wake the fetch for everything it hears (its watchdog watches idle heartbeats).
    private let wakesOnHearing: Bool
    private let state: NIOLockedValueBox<State>

    /// An inbox on `subject` for a pull of `batch` messages.
    init(subject: String, batch: Int, wakesOnHearing: Bool) {
        self.subject = subject
        self.wakesOnHearing = wakesOnHearing
        self.state = NIOLockedValueBox(State(missing: batch))
    }

    func enqueue(_ message: NATSMessage) -> NATSMessageQueue.EnqueueResult {
        state.withLockedValue { state in
            if state.finished { return .terminated }
            let status = JetStreamPullStatus(message)
            switch status {
            case .message:
                state.update.deliveries.append(message)
                state.missing -= 1
                if state.missing <= 0 || wakesOnHearing { state.ready = true }
            case .heartbeat:
                if wakesOnHearing { state.ready = true }
            case .end, .failure:
                // Only this pull's own statuses reach it: its subject is its own.
                if state.update.ending == nil { state.update.ending = status }
                state.ready = true
            }
            state.update.heard = true
            guard state.ready, state.waiter != nil, !state.wakePending else { return .enqueued(needsWake: false) }
            state.wakePending = true
            return .enqueued(needsWake: true)
        }
    }

    func wake(followUp: Bool) -> Bool {
        let woken: (UnsafeContinuation<Update, Never>, Update)? = state.withLockedValue { state in
            state.wakePending = false
            guard state.ready, let waiter = state.waiter else { return nil }
            state.waiter = nil
            return (waiter, state.take())
        }
        if let (waiter, update) = woken { waiter.resume(returning: update) }
        return false
    }

    /// The subscription ended: by the fetch's own unsubscribe, or because the client closed.
    func finish() {
        notify { state in
            state.finished = true
            state.update.closed = true
        }
    }

    /// Wakes the fetch for `signal`.
    func signal(_ signal: Signal) {
        notify { state in
            switch signal {
            case .reconnected: state.update.reconnected = true
            case .alarm: state.update.alarm = true
            case .cancelled: state.update.cancelled = true
            }
        }
    }

    private func notify(_ change: (inout State) -> Void) {
        let woken: (UnsafeContinuation<Update, Never>, Update)? = state.withLockedValue { state in
            change(&state)
            state.ready = true
            guard let waiter = state.waiter else { return nil }
            state.waiter = nil
            return (waiter, state.take())
        }
        if let (waiter, update) = woken { waiter.resume(returning: update) }
    }

    /// What arrived and happened since the last call, once there is something to act on. Cancelling the calling
    /// task returns at once with ``Update/cancelled``.
    func next() async -> Update {
        await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<Update, Never>) in
                let now: Update? = state.withLockedValue { state in
                    if Task.isCancelled { state.update.cancelled = true }
                    if state.ready || state.update.cancelled { return state.take() }
                    state.waiter = continuation
                    return nil
                }
                if let now { continuation.resume(returning: now) }
            }
        } onCancel: {
            signal(.cancelled)
        }
    }

    /// Whether a fetch waits in ``next()`` (for tests).
    var isWaiting: Bool { state.withLockedValue { $0.waiter != nil } }

    /// What arrived since the last ``next()``, without waiting (the fetch leaves this pull for a new one).
    func takeNow() -> Update {
        state.withLockedValue { $0.take() }
    }
}
