// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// Fans lifecycle events out to any number of independent consumers, each with its own bounded buffer, and to
// listeners the client's own parts register (a JetStream fetch learns of a reconnect without a task of its own).

import NIOConcurrencyHelpers

final class NATSEventBroadcaster: Sendable {
    private struct State {
        var consumers: [UInt64: AsyncStream<NATSEvent>.Continuation] = [:]
        var listeners: [UInt64: @Sendable (NATSEvent) -> Void] = [:]
        var nextID: UInt64 = 0
        var finished = false
    }

    private let state = NIOLockedValueBox(State())

    /// A new consumer that sees every event from now on; when more than `bufferSize` events wait
    /// unread, the oldest are dropped (for this consumer only). Ends when the client closes; a stream
    /// made after that ends at once.
    func makeStream(bufferSize: Int) -> AsyncStream<NATSEvent> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: NATSEvent.self,
            bufferingPolicy: .bufferingNewest(max(1, bufferSize))
        )
        let id: UInt64? = state.withLockedValue { state in
            guard !state.finished else { return nil }
            state.nextID += 1
            state.consumers[state.nextID] = continuation
            return state.nextID
        }
        guard let id else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLockedValue { _ = $0.consumers.removeValue(forKey: id) }
        }
        return stream
    }

    var consumerCount: Int { state.withLockedValue { $0.consumers.count } }

    /// Listeners registered now (for tests).
    var listenerCount: Int { state.withLockedValue { $0.listeners.count } }

    /// Calls `listener` with every event from now on, on the thread that reports it (keep it short, never block);
    /// returns its id for ``removeListener(_:)``, or `nil` when the client has closed (no event will come).
    func addListener(_ listener: @escaping @Sendable (NATSEvent) -> Void) -> UInt64? {
        state.withLockedValue { state in
            guard !state.finished else { return nil }
            state.nextID += 1
            state.listeners[state.nextID] = listener
            return state.nextID
        }
    }

    /// Stops calling the listener `id`.
    func removeListener(_ id: UInt64) {
        _ = state.withLockedValue { $0.listeners.removeValue(forKey: id) }
    }

    func yield(_ event: NATSEvent) {
        let (consumers, listeners) = state.withLockedValue { (Array($0.consumers.values), Array($0.listeners.values)) }
        for consumer in consumers { consumer.yield(event) }
        for listener in listeners { listener(event) }
    }

    func finish() {
        let consumers: [AsyncStream<NATSEvent>.Continuation] = state.withLockedValue { state in
            state.finished = true
            let consumers = Array(state.consumers.values)
            state.consumers.removeAll()
            state.listeners.removeAll()
            return consumers
        }
        for consumer in consumers { consumer.finish() }
    }
}
