// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// Subscriptions: SUB and UNSUB on the wire, delivery of MSG/HMSG through the registry (with slow-consumer
// reports and wake-ups once per read batch), and draining one subscription or the whole client.

import NIOConcurrencyHelpers
import NIOCore

extension NATSConnectionCore {
    func subscribe(
        subject: String,
        queue: String?,
        pendingLimit: Int,
        dropCounter: NATSDropCounter
    ) throws(NATSError) -> (UInt64, NATSMessageQueue) {
        try subscribe(subject: subject, queue: queue, dropCounter: dropCounter) { sid in
            NATSMessageQueue(limit: pendingLimit) { [weak self] in self?.unsubscribe(sid: sid, after: nil) }
        }
    }

    /// Subscribes `subject` with the sink `makeSink` makes for the new subscription id.
    ///
    /// - Parameter flush: Schedule the flush that sends the SUB. `false` when the caller publishes at once (a
    ///   JetStream pull): the publish's flush carries both, and the event loop is not woken between the two to take
    ///   the lock the publish then waits for.
    func subscribe<Sink: NATSMessageSink>(
        subject: String,
        queue: String? = nil,
        dropCounter: NATSDropCounter? = nil,
        flush: Bool = true,
        makeSink: (UInt64) -> Sink
    ) throws(NATSError) -> (UInt64, Sink) {
        guard NATSSubjectValidator.isValidSubscribeSubject(subject) else {
            throw NATSError(.invalidSubject, "invalid subscription subject")
        }
        if let queue, !NATSSubjectValidator.isValidQueueName(queue) {
            throw NATSError(.invalidSubject, "invalid queue group name")
        }
        let result: Result<(UInt64, Sink, Bool), NATSError> = state.withLockedValue { state in
            if state.isShutDown { return .failure(NATSError(.connectionClosed, "connection closed")) }
            let (sid, sink) = state.subscriptions.add(
                subject: subject, queue: queue, dropCounter: dropCounter, makeSink: makeSink)
            guard state.canWrite else { return .success((sid, sink, false)) }
            state.outbound.write(.subscribe(subject: subject, queue: queue, sid: sid))
            return .success((sid, sink, flush && scheduleFlushLocked(&state)))
        }
        switch result {
        case .success(let (sid, sink, needsFlush)):
            if needsFlush { eventLoop.execute { self.flushOutbound() } }
            return (sid, sink)
        case .failure(let error):
            throw error
        }
    }

    /// Unsubscribes `sid` now, or after `max` messages in all.
    ///
    /// - Parameter flush: Schedule the flush that sends the UNSUB. `false` when nothing more can come on the
    ///   subscription (a JetStream pull that ended): the UNSUB goes out with the next write, and a message that
    ///   still came would find no subscription and be dropped.
    func unsubscribe(sid: UInt64, after max: Int?, flush: Bool = true) {
        let (needsFlush, finished): (Bool, (any NATSMessageSink)?) = state.withLockedValue { state in
            guard let outcome = state.subscriptions.unsubscribe(sid, after: max) else { return (false, nil) }
            var finished: (any NATSMessageSink)?
            var wireMax: Int?
            switch outcome {
            case .limited(let max): wireMax = max
            case .removed(let sink): finished = sink
            }
            guard state.canWrite else { return (false, finished) }
            // Like nats.go, the live UNSUB carries the total; a resubscribe after reconnect sends what remains.
            state.outbound.write(.unsubscribe(sid: sid, max: wireMax))
            return (flush && scheduleFlushLocked(&state), finished)
        }
        finished?.finish()
        if needsFlush { eventLoop.execute { self.flushOutbound() } }
    }

    /// Hands the messages of one read to their subscriptions and waiting requests, under one lock.
    func deliver(_ batch: [(sid: UInt64, message: NATSMessage)]) {
        deliver(batch.count) { index in batch[index] }
    }

    /// Hands the messages of `frames` to their subscriptions, each with its payload sliced from `payloads` (the
    /// frames' payloads one after the other), made under the lock where it is delivered.
    func deliver(_ frames: [NATSMessageFrame], payloads: ByteBuffer) {
        var offset = payloads.readerIndex
        deliver(frames.count) { index in
            let frame = frames[index]
            let payload = payloads.getSlice(at: offset, length: frame.payloadLength)!
            offset += frame.payloadLength
            return (frame.sid, frame.message(payload: payload))
        }
    }

    /// Delivers `count` messages, the `index`th made by `message(index)` (in order, under the lock).
    @inline(__always)
    private func deliver(_ count: Int, _ message: (Int) -> (sid: UInt64, message: NATSMessage)) {
        var slowConsumers: [NATSError] = []
        var responses: [(PendingRequest, NATSMessage)] = []
        state.withLockedValue { state in
            for index in 0..<count {
                let (sid, message) = message(index)
                state.statistics.inMessages += 1
                state.statistics.inBytes += UInt64(message.payload.readableBytes)
                switch state.subscriptions.deliver(message, to: sid) {
                case .unknown:
                    break
                case .requestInbox:
                    if let pending = state.requests.answer(to: message.subject) { responses.append((pending, message)) }
                case .delivered(let wake, let slowConsumer):
                    if let wake { state.queuesToWake.append(wake) }
                    if let slowConsumer { slowConsumers.append(slowConsumer) }
                }
            }
        }
        for error in slowConsumers { events.yield(.error(error)) }
        for (pending, message) in responses {
            if message.status == 503, message.payload.readableBytes == 0 {
                pending.waiter.fail(NATSError(.noResponders, "no responders for the request"))
            } else {
                pending.waiter.succeed(message)
            }
        }
    }

    /// Unsubscribes `sid` on the server, waits for a PING/PONG round trip so every message the server
    /// sent before the UNSUB has arrived, then ends the subscription's sequence.
    func drainSubscription(sid: UInt64, timeout: Duration) async throws {
        let needsFlush: Bool = state.withLockedValue { state in
            guard state.subscriptions.contains(sid), state.canWrite else { return false }
            state.outbound.write(.unsubscribe(sid: sid, max: nil))
            return scheduleFlushLocked(&state)
        }
        if needsFlush { eventLoop.execute { self.flushOutbound() } }
        var failure: (any Error)?
        do {
            try await flush(timeout: timeout)
        } catch {
            failure = error
        }
        let queue = state.withLockedValue { $0.subscriptions.remove(sid) }
        queue?.finish()
        if let failure { throw failure }
    }

    /// Unsubscribes everything, waits for the messages the server sent before, ends the sequences, closes.
    func drain(timeout: Duration) async throws {
        let (needsFlush, started): (Bool, Bool) = state.withLockedValue { state in
            guard state.machine.startDraining() else { return (false, false) }
            for sid in state.subscriptions.subscriberIDs {
                state.outbound.write(.unsubscribe(sid: sid, max: nil))
            }
            return (scheduleFlushLocked(&state), true)
        }
        guard started else {
            await close()
            return
        }
        if needsFlush { eventLoop.execute { self.flushOutbound() } }
        var failure: (any Error)?
        do {
            // The PONG comes after every message the server sent before it processed our UNSUBs.
            try await flush(timeout: timeout)
        } catch {
            failure = error
        }
        let queues = state.withLockedValue { $0.subscriptions.removeSubscribers() }
        for queue in queues { queue.finish() }
        await close()
        if let failure { throw failure }
    }
}
