// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// Publishing: frames into the outbound buffer, flushes scheduled once per burst, and the two answers to a
// full buffer — `publish` refuses at once (`bufferFull`), `send` waits for room (back-pressure), in order.
// The buffer's limit is `maxPendingOutboundBytes` while connected and `reconnectBufferSize` while not. While
// connected, `send` also waits for the socket: at most `sendWindow` bytes queued and not yet written (one chunk
// for a sender on the event loop while the socket is backed up), as nats.c's and nats.go's publishers block on a
// full socket.

import NIOConcurrencyHelpers
public import NIOCore

extension NATSConnectionCore {
    /// Queues a publish now or throws `bufferFull`; never waits.
    ///
    /// Publishes without headers (nearly all) take a path that writes the frame straight from the arguments:
    /// building a ``NATSPublishFrame`` for them cost about a third of the 16-byte publish rate in NATSBench.
    func publish(subject: String, replyTo: String?, headers: NATSHeaders?, payload: ByteBuffer) throws(NATSError) {
        guard NATSSubjectValidator.isValidPublishSubject(subject) else {
            throw NATSError(.invalidSubject, "invalid publish subject")
        }
        try publish(validSubject: subject, replyTo: replyTo, headers: headers, payload: payload)
    }

    /// ``publish(subject:replyTo:headers:payload:)`` of a subject known to be valid: a reply subject the decoder
    /// read (its arguments are split at whitespace, so none has any), such as a JetStream ack subject.
    func publish(validSubject subject: String, replyTo: String?, headers: NATSHeaders?, payload: ByteBuffer)
        throws(NATSError)
    {
        let onLoop = eventLoop.inEventLoop
        let result: Result<Flush, NATSError>
        if let headers {
            let frame = NATSPublishFrame(validSubject: subject, replyTo: replyTo, headers: headers, payload: payload)
            result = state.withLockedValue { state in
                if let refusal = refusal(of: frame, state) { return .failure(refusal) }
                if let full = fullBuffer(for: frame.size, state) { return .failure(full) }
                queueLocked(frame, &state)
                return .success(flushLocked(onLoop: onLoop, &state))
            }
        } else {
            let size = payload.readableBytes
            result = state.withLockedValue { state in
                if let refusal = refusal(ofSize: size, hasHeaders: false, state) { return .failure(refusal) }
                if let full = fullBuffer(for: size, state) { return .failure(full) }
                queuePublishLocked(subject: subject, replyTo: replyTo, payload: payload, &state)
                return .success(flushLocked(onLoop: onLoop, &state))
            }
        }
        switch result {
        case .success(let flush):
            perform(flush)
        case .failure(let error):
            throw error
        }
    }

    /// While connected, a `send` off the event loop waits once this many bytes are queued or handed to the channel
    /// and not yet written, and waiting sends go on once half of it is written. A publisher allowed to run ahead
    /// of the socket by the whole outbound limit writes into fresh pages all along and takes the CPU that
    /// nats-server needs to read; within the window its chunks are recycled while still in cache. A smaller
    /// window costs more in wake-ups than it saves; larger ones gain nothing (docs/benchmarks.md).
    static let sendWindow = 16 * NATSOutboundBuffer.chunkSize

    /// What a publisher does after queueing a frame.
    struct Flush {
        /// Schedule the burst's flush on the event loop.
        var schedule: Bool
        /// Write now: the publisher runs on the event loop and a whole chunk is queued.
        var inPlace: Bool
    }

    /// After a frame was queued (under the lock): whether to schedule the burst's flush, and whether to write in
    /// place. A publisher on the event loop (a task on ``NATSClient/taskExecutor``) writes each chunk as it
    /// fills, as nats.c's publisher writes from its own thread: the scheduled flush runs only once the task yields
    /// the loop, so it would otherwise buffer its whole burst.
    @inline(__always)
    func flushLocked(onLoop: Bool, _ state: inout State) -> Flush {
        Flush(schedule: scheduleFlushLocked(&state), inPlace: onLoop && state.outbound.hasFullChunk)
    }

    /// Writes in place, or schedules the flush. Writing in place takes everything queued (or, on a backed-up
    /// socket, leaves the flag set for the writability change), so a flush scheduled beside it would find nothing.
    @inline(__always)
    func perform(_ flush: Flush) {
        if flush.inPlace {
            flushOutbound()
        } else if flush.schedule {
            eventLoop.execute { self.flushOutbound() }
        }
    }

    /// `bufferFull` if a publish of `size` bytes does not fit now beside what is queued and what the waiting sends
    /// will queue: a publish does not take room that a waiting send needs (it may go before a send that waits
    /// only for the socket, see ``sendWindow``).
    @inline(__always)
    private func fullBuffer(for size: Int, _ state: borrowing State) -> NATSError? {
        var queued = state.outbound.pendingBytes + size
        if !state.sendWaiters.isEmpty {
            for waiting in state.sendWaiters { queued += waiting.frame.size }
        }
        if queued <= outboundLimit(state) { return nil }
        return NATSError(.bufferFull, state.canWrite ? "outbound buffer full" : "reconnect buffer full")
    }

    /// Queues a publish without headers if it fits now, as ``send(subject:replyTo:headers:payload:)`` would
    /// without waiting; `false` if it must wait. A synchronous first step, so a send that does not wait costs one
    /// async call (the client's), not three nested ones.
    @usableFromInline
    func sendWithoutWaiting(subject: String, replyTo: String?, payload: ByteBuffer) throws(NATSError) -> Bool {
        guard NATSSubjectValidator.isValidPublishSubject(subject) else {
            throw NATSError(.invalidSubject, "invalid publish subject")
        }
        return try queueIfRoom(validSubject: subject, replyTo: replyTo, payload: payload)
    }

    /// Queues a publish without headers straight from the arguments if there is room now; `false` if it must
    /// wait.
    @inline(__always)
    private func queueIfRoom(validSubject subject: String, replyTo: String?, payload: ByteBuffer) throws(NATSError)
        -> Bool
    {
        let size = payload.readableBytes
        let onLoop = eventLoop.inEventLoop
        let attempt: Result<Flush?, NATSError> = state.withLockedValue { state in
            if let refusal = refusal(ofSize: size, hasHeaders: false, state) { return .failure(refusal) }
            guard state.sendWaiters.isEmpty, fits(size, onLoop: onLoop, state) else { return .success(nil) }
            queuePublishLocked(subject: subject, replyTo: replyTo, payload: payload, &state)
            return .success(flushLocked(onLoop: onLoop, &state))
        }
        switch attempt {
        case .success(let flush?):
            perform(flush)
            return true
        case .success(nil):
            return false
        case .failure(let error):
            throw error
        }
    }

    /// Queues a publish, waiting while the buffer has no room for it (see ``send(_:)``). A publish without
    /// headers that fits at once is written straight from the arguments, as in `publish`; only one that must
    /// wait (or has headers) becomes a ``NATSPublishFrame``.
    @usableFromInline
    nonisolated(nonsending) func send(
        subject: String, replyTo: String?, headers: NATSHeaders?, payload: ByteBuffer
    ) async throws(NATSError) {
        guard NATSSubjectValidator.isValidPublishSubject(subject) else {
            throw NATSError(.invalidSubject, "invalid publish subject")
        }
        try await send(validSubject: subject, replyTo: replyTo, headers: headers, payload: payload)
    }

    /// ``send(subject:replyTo:headers:payload:)`` for a subject the caller has validated.
    nonisolated(nonsending) func send(
        validSubject subject: String, replyTo: String?, headers: NATSHeaders?, payload: ByteBuffer
    ) async throws(NATSError) {
        if headers == nil, try queueIfRoom(validSubject: subject, replyTo: replyTo, payload: payload) { return }
        try await send(NATSPublishFrame(validSubject: subject, replyTo: replyTo, headers: headers, payload: payload))
    }

    /// Queues `frame`, waiting while the buffer has no room for it; waiting sends are queued in the order
    /// they came. Throws what `publish` throws except `bufferFull`, `connectionClosed` if the client closes
    /// while it waits, and `cancelled` if the calling task is cancelled while it waits.
    nonisolated(nonsending) func send(_ frame: NATSPublishFrame) async throws(NATSError) {
        enum Admission {
            case queued(Flush)
            case waiting(id: UInt64, promise: EventLoopPromise<Void>)
            case refused(NATSError)
        }
        let onLoop = eventLoop.inEventLoop
        let admission: Admission = state.withLockedValue { state in
            if let refusal = refusal(of: frame, state) { return .refused(refusal) }
            if state.sendWaiters.isEmpty, fits(frame.size, onLoop: onLoop, state) {
                queueLocked(frame, &state)
                return .queued(flushLocked(onLoop: onLoop, &state))
            }
            let id = state.makeWaiterID()
            let promise = eventLoop.makePromise(of: Void.self)
            state.sendWaiters.append(PendingSend(id: id, frame: frame, promise: promise))
            return .waiting(id: id, promise: promise)
        }
        switch admission {
        case .refused(let error):
            throw error
        case .queued(let flush):
            perform(flush)
        case .waiting(let id, let promise):
            do {
                try await withTaskCancellationHandler {
                    try await promise.futureResult.get()
                } onCancel: {
                    let cancelled: PendingSend? = self.state.withLockedValue { state in
                        guard let index = state.sendWaiters.firstIndex(where: { $0.id == id }) else { return nil }
                        return state.sendWaiters.remove(at: index)
                    }
                    cancelled?.promise.fail(NATSError(.cancelled, "cancelled while waiting for room to publish"))
                }
            } catch let error as NATSError {
                throw error
            } catch {
                throw NATSError(.connectionClosed, "\(error)")
            }
        }
    }

    /// Why `frame` cannot be published at all (closed, headers the server lacks, too large); `nil` if it can.
    private func refusal(of frame: borrowing NATSPublishFrame, _ state: borrowing State) -> NATSError? {
        refusal(ofSize: frame.size, hasHeaders: frame.headerBlock != nil, state)
    }

    @inline(__always)
    private func refusal(ofSize size: Int, hasHeaders: Bool, _ state: borrowing State) -> NATSError? {
        if state.isShutDown { return NATSError(.connectionClosed, "connection closed") }
        if hasHeaders, !state.serverHeaders {
            return NATSError(.invalidConfiguration, "server does not support headers")
        }
        if size > state.maxPayload {
            return NATSError(
                .maxPayloadExceeded, "payload of \(size) bytes exceeds the server maximum \(state.maxPayload)")
        }
        return nil
    }

    private func outboundLimit(_ state: State) -> Int {
        state.canWrite ? configuration.maxPendingOutboundBytes : configuration.reconnectBufferSize
    }

    /// Room for a waiting send: within the limit, or an empty buffer (a frame larger than the limit still goes,
    /// alone).
    @inline(__always)
    private func fits(_ size: Int, _ state: borrowing State) -> Bool {
        let pending = state.outbound.pendingBytes
        return pending == 0 || pending + size <= outboundLimit(state)
    }

    /// Room for a send now. While connected, also within ``sendWindow`` of the socket; on the event loop, no more
    /// than a chunk while the socket is backed up: a task there that kept queueing would hold the loop (it cannot
    /// drain the socket while the task runs), so it waits for writability instead, as a blocking write would.
    @inline(__always)
    private func fits(_ size: Int, onLoop: Bool, _ state: borrowing State) -> Bool {
        guard fits(size, state) else { return false }
        guard state.canWrite, let channel = state.channel else { return true }
        if !onLoop {
            let unwritten = state.outbound.unwrittenBytes
            return unwritten == 0 || unwritten + size <= Self.sendWindow
        }
        return state.outbound.pendingBytes < NATSOutboundBuffer.chunkSize || channel.isWritable
    }

    /// Room for sends that wait: within the limit and, while connected, with no more than half of ``sendWindow``
    /// unwritten (waiting senders go on in batches rather than one wake-up per chunk written).
    @inline(__always)
    private func admits(_ size: Int, _ state: borrowing State) -> Bool {
        guard fits(size, state) else { return false }
        guard state.canWrite else { return true }
        let unwritten = state.outbound.unwrittenBytes
        return unwritten == 0 || unwritten <= Self.sendWindow / 2
    }

    @inline(__always)
    private func queuePublishLocked(subject: String, replyTo: String?, payload: ByteBuffer, _ state: inout State) {
        state.outbound.writePublish(subject: subject, replyTo: replyTo, payload: payload)
        state.statistics.outMessages += 1
        state.statistics.outBytes += UInt64(payload.readableBytes)
    }

    private func queueLocked(_ frame: borrowing NATSPublishFrame, _ state: inout State) {
        state.outbound.write(frame)
        state.statistics.outMessages += 1
        state.statistics.outBytes += UInt64(frame.payload.readableBytes)
    }

    /// Queues the waiting sends that now fit, oldest first; returns their promises to complete after the
    /// lock (with the error for a frame the current server refuses, such as one over its `max_payload`).
    func admitWaitingSendsLocked(_ state: inout State) -> [(EventLoopPromise<Void>, NATSError?)] {
        var admitted: [(EventLoopPromise<Void>, NATSError?)] = []
        while let first = state.sendWaiters.first {
            if let refusal = refusal(of: first.frame, state) {
                admitted.append((state.sendWaiters.removeFirst().promise, refusal))
                continue
            }
            guard admits(first.frame.size, state) else { break }
            queueLocked(first.frame, &state)
            admitted.append((state.sendWaiters.removeFirst().promise, nil))
        }
        return admitted
    }

    /// Marks a flush as scheduled if one is needed; returns whether the caller must schedule it.
    func scheduleFlushLocked(_ state: inout State) -> Bool {
        guard !state.flushScheduled, state.canWrite else { return false }
        state.flushScheduled = true
        return true
    }

    func flushOutbound() {
        let work: ((any Channel), [ByteBuffer], [(EventLoopPromise<Void>, NATSError?)], Bool)? =
            state.withLockedValue { state in
                guard let channel = state.channel, state.machine.isConnected, !state.outbound.isEmpty else {
                    state.flushScheduled = false
                    return nil
                }
                // Not writable: keep the flag set so publishes stop scheduling flushes; the writability
                // change flushes once the socket drains.
                guard channel.isWritable else { return nil }
                state.flushScheduled = false
                let chunks = state.outbound.takeForWrite()
                let admitted = admitWaitingSendsLocked(&state)
                let again = !admitted.isEmpty && !state.outbound.isEmpty && scheduleFlushLocked(&state)
                return (channel, chunks, admitted, again)
            }
        guard let (channel, chunks, admitted, again) = work else { return }
        write(chunks, to: channel)
        complete(admitted)
        if again { eventLoop.execute { self.flushOutbound() } }
    }

    func complete(_ admitted: [(EventLoopPromise<Void>, NATSError?)]) {
        for (promise, error) in admitted {
            if let error { promise.fail(error) } else { promise.succeed() }
        }
    }

    /// Writes chunks taken with `takeForWrite()` and flushes once; each chunk goes back to the pool when
    /// its write completes, and sends waiting for the socket go on once enough is written.
    func write(_ chunks: [ByteBuffer], to channel: any Channel) {
        if chunks.isEmpty {
            channel.flush()
            return
        }
        for chunk in chunks {
            let written = eventLoop.makePromise(of: Void.self)
            written.futureResult.whenComplete { _ in self.chunkWritten() }
            channel.write(chunk, promise: written)
        }
        channel.flush()
    }

    /// One chunk's write completed (or failed with the connection): recycles it and, while connected, admits the
    /// sends that now fit.
    private func chunkWritten() {
        let (admitted, flush): ([(EventLoopPromise<Void>, NATSError?)], Bool) = state.withLockedValue { state in
            state.outbound.written()
            // Writes that failed with a closing channel admit nothing: a close fails the waiting sends, and after a
            // disconnect the next connection's flush admits them.
            guard !state.sendWaiters.isEmpty, state.canWrite, !state.isShutDown else { return ([], false) }
            let admitted = admitWaitingSendsLocked(&state)
            return (admitted, !admitted.isEmpty && scheduleFlushLocked(&state))
        }
        if flush { eventLoop.execute { self.flushOutbound() } }
        complete(admitted)
    }

    /// Sends a PING after everything queued and waits for its PONG.
    nonisolated(nonsending) func flush(timeout: Duration) async throws {
        let promise = eventLoop.makePromise(of: Void.self)
        let result: Result<(UInt64, Bool), NATSError> = state.withLockedValue { state in
            guard !state.finished else { return .failure(NATSError(.connectionClosed, "connection closed")) }
            guard state.canWrite else { return .failure(NATSError(.notConnected, "not connected")) }
            let id = state.makeWaiterID()
            state.outbound.write(.ping)
            state.pongWaiters.append((id: id, promise: promise))
            return .success((id, scheduleFlushLocked(&state)))
        }
        let id: UInt64
        switch result {
        case .success(let (waiterID, needsFlush)):
            id = waiterID
            if needsFlush { eventLoop.execute { self.flushOutbound() } }
        case .failure(let error):
            promise.fail(error)
            throw error
        }
        let timer = eventLoop.scheduleTask(in: TimeAmount(timeout)) {
            let expired: EventLoopPromise<Void>? = self.state.withLockedValue { state in
                guard let index = state.pongWaiters.firstIndex(where: { $0.id == id }) else { return nil }
                let waiter = state.pongWaiters[index].promise
                state.pongWaiters[index] = (id: 0, promise: nil)
                return waiter
            }
            expired?.fail(NATSError(.timeout, "no PONG within \(timeout)"))
        }
        defer { timer.cancel() }
        try await promise.futureResult.get()
    }
}
