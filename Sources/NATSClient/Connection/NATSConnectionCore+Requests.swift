// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// Request/reply: one wildcard inbox subscription opened with the first request, a reply subject per request
// from the multiplexer, and the publish through `send`, so a request waits for room in a full outbound buffer
// instead of failing. Timeouts share one timer set for the earliest deadline: requests with the same timeout
// come in deadline order, so a steady stream schedules nothing per request (a timer per request cost a
// cross-thread wake-up of the event loop each). Deadlines are on the event loop's clock, the one its timers use.
// The reply reaches the waiting task through a NATSReplyWaiter, not an EventLoopPromise: awaiting a promise's
// future off the event loop wakes the loop once more per request, to register the callback.

import NIOConcurrencyHelpers
import NIOCore

extension NATSConnectionCore {
    nonisolated(nonsending) func request(
        subject: String,
        headers: NATSHeaders?,
        payload: ByteBuffer,
        timeout: Duration
    ) async throws -> NATSMessage {
        let pending = try await startRequest(subject: subject, headers: headers, payload: payload, timeout: timeout)
        return try await pending.value()
    }

    /// Publishes a request and returns at once (once it is in the outbound buffer) with its pending reply: many can
    /// wait at the same time without a task each.
    nonisolated(nonsending) func startRequest(
        subject: String,
        headers: NATSHeaders?,
        payload: ByteBuffer,
        timeout: Duration
    ) async throws -> NATSPendingReply {
        guard NATSSubjectValidator.isValidPublishSubject(subject) else {
            throw NATSError(.invalidSubject, "invalid publish subject")
        }
        let waiter = NATSReplyWaiter()
        let deadline = eventLoop.now + TimeAmount(timeout)
        let reply: Result<(replySubject: String, token: UInt64), NATSError> = state.withLockedValue { state in
            if state.isShutDown { return .failure(NATSError(.connectionClosed, "connection closed")) }
            if state.requests.inbox == nil {
                let prefix = "\(configuration.inboxPrefix).\(NATSNUID.next())."
                let sid = state.subscriptions.addRequestInbox(subject: prefix + "*")
                state.requests.open(prefix: prefix, sid: sid)
                if state.canWrite { state.outbound.write(.subscribe(subject: prefix + "*", queue: nil, sid: sid)) }
            }
            let registered = state.requests.register(
                PendingRequest(waiter: waiter, deadline: deadline, timeout: timeout))
            if state.requestTimer.map({ deadline < $0.deadline }) ?? true {
                scheduleRequestTimerLocked(deadline, &state)
            }
            return .success(registered)
        }
        let (replySubject, token): (String, UInt64)
        switch reply {
        case .success(let value):
            (replySubject, token) = value
        case .failure(let error):
            throw error
        }
        let pending = NATSPendingReply(core: self, waiter: waiter, token: token)
        do throws(NATSError) {
            // A request without headers that fits is written straight from its arguments, as a publish is.
            try await send(validSubject: subject, replyTo: replySubject, headers: headers, payload: payload)
        } catch {
            failRequest(token: token, error: error)
        }
        return pending
    }

    fileprivate func cancelRequest(token: UInt64) {
        failRequest(token: token, error: NATSError(.timeout, "request cancelled"))
    }

    private func failRequest(token: UInt64, error: NATSError) {
        let pending = state.withLockedValue { $0.requests.remove(token) }
        pending?.waiter.fail(error)
    }

    /// Sets the request timer for `deadline`, replacing one set for later.
    private func scheduleRequestTimerLocked(_ deadline: NIODeadline, _ state: inout State) {
        state.requestTimer?.task.cancel()
        let task = eventLoop.scheduleTask(deadline: deadline) { self.requestTimerFired() }
        state.requestTimer = (deadline, task)
    }

    /// Fails the requests whose deadline has passed, and the sends still waiting for room to publish them
    /// (the timeout includes that wait), and sets the timer for the next deadline.
    private func requestTimerFired() {
        let now = eventLoop.now
        let (expired, unsent): ([PendingRequest], [PendingSend]) = state.withLockedValue { state in
            state.requestTimer = nil
            let expired = state.requests.removeAll { $0.deadline <= now }
            var unsent: [PendingSend] = []
            if !expired.isEmpty, !state.sendWaiters.isEmpty {
                var keep = CircularBuffer<PendingSend>()
                for send in state.sendWaiters {
                    if let reply = send.frame.replyTo, state.requests.isAbandoned(reply) {
                        unsent.append(send)
                    } else {
                        keep.append(send)
                    }
                }
                state.sendWaiters = keep
            }
            if !state.isShutDown, let next = state.requests.minimum(of: \.deadline) {
                scheduleRequestTimerLocked(next, &state)
            }
            return (expired, unsent)
        }
        for send in unsent { send.promise.fail(NATSError(.timeout, "no room to send the request in time")) }
        for request in expired { request.waiter.fail(NATSError(.timeout, "no reply within \(request.timeout)")) }
    }
}

/// A request on its way: the reply (or the failure) arrives through ``value()``.
struct NATSPendingReply: Sendable {
    fileprivate let core: NATSConnectionCore
    fileprivate let waiter: NATSReplyWaiter
    fileprivate let token: UInt64

    /// Waits for the reply; cancelling the waiting task fails the request.
    func value() async throws -> NATSMessage {
        try await withTaskCancellationHandler {
            try await waiter.value()
        } onCancel: {
            core.cancelRequest(token: token)
        }
    }
}
