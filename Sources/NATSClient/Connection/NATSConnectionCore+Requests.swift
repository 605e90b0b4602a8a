// Request/reply: one wildcard inbox subscription opened with the first request, a reply subject per request
// from the multiplexer, a timer per request, and the publish through `send`, so a request waits for room in
// a full outbound buffer instead of failing.

import NIOConcurrencyHelpers
import NIOCore

extension NATSConnectionCore {
    nonisolated(nonsending) func request(
        subject: String,
        headers: NATSHeaders?,
        payload: ByteBuffer,
        timeout: Duration
    ) async throws -> NATSMessage {
        var frame = try NATSPublishFrame(subject: subject, replyTo: nil, headers: headers, payload: payload)
        let promise = eventLoop.makePromise(of: NATSMessage.self)
        let reply: Result<(replySubject: String, token: Substring), NATSError> = state.withLockedValue { state in
            if state.isShutDown { return .failure(NATSError(.connectionClosed, "connection closed")) }
            if state.requests.inbox == nil {
                let prefix = "\(configuration.inboxPrefix).\(NATSNUID.next())."
                let sid = state.subscriptions.addRequestInbox(subject: prefix + "*")
                state.requests.open(prefix: prefix, sid: sid)
                if state.canWrite { state.outbound.write(.subscribe(subject: prefix + "*", queue: nil, sid: sid)) }
            }
            return .success(state.requests.register(PendingRequest(promise: promise, timeout: nil)))
        }
        let token: Substring
        switch reply {
        case .success(let value):
            frame.replyTo = value.replySubject
            token = value.token
        case .failure(let error):
            promise.fail(error)
            throw error
        }
        let timer = eventLoop.scheduleTask(in: TimeAmount(timeout)) {
            self.failRequest(token: token, error: NATSError(.timeout, "no reply within \(timeout)"))
        }
        state.withLockedValue { state in state.requests.update(token) { $0.timeout = timer } }
        return try await withTaskCancellationHandler {
            do throws(NATSError) {
                try await send(frame)
            } catch {
                failRequest(token: token, error: error)
            }
            return try await promise.futureResult.get()
        } onCancel: {
            self.failRequest(token: token, error: NATSError(.timeout, "request cancelled"))
        }
    }

    private func failRequest(token: Substring, error: NATSError) {
        let pending = state.withLockedValue { $0.requests.remove(token) }
        pending?.timeout?.cancel()
        pending?.promise.fail(error)
    }
}
