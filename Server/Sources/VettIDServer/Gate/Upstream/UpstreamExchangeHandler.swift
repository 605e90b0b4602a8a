// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import NIOCore
import NIOHTTP1
import VettIDCore

/// The response to one forwarded request: its head, and its body.
struct UpstreamResponse: Sendable {
    /// A body that had fully arrived with the head, or one that streams as it arrives.
    enum Body: Sendable {
        case complete(ByteBuffer)
        case streaming(UpstreamResponseBody)
    }

    let head: HTTPResponseHead
    let body: Body
}

/// A response body read from the upstream connection as its reader asks for more (back-pressure reaches the
/// socket: the handler stops reading while the reader has 16 chunks waiting).
typealias UpstreamResponseBody = NIOThrowingAsyncSequenceProducer<
    ByteBuffer, any Error, NIOAsyncSequenceProducerBackPressureStrategies.HighLowWatermark, UpstreamBodyDemand
>

/// Tells the connection's handler, on its event loop, that a body's reader wants more or stopped reading.
struct UpstreamBodyDemand: NIOAsyncSequenceProducerDelegate {
    let handler: NIOLoopBound<UpstreamExchangeHandler>
    /// The exchange the body belongs to: a late signal about an earlier exchange on a reused connection is ignored.
    let exchange: Int

    func produceMore() {
        let (handler, exchange) = (handler, exchange)
        handler.eventLoop.execute { handler.value.readerWantsMore(exchange: exchange) }
    }

    func didTerminate() {
        let (handler, exchange) = (handler, exchange)
        handler.eventLoop.execute { handler.value.readerStopped(exchange: exchange) }
    }
}

/// One exchange at a time on one upstream HTTP/1.1 connection: delivers the response head to a promise and the
/// body to an ``UpstreamResponseBody``, enforces the read timeout, and says when the connection is free again.
///
/// A response that arrives whole in one read (head, a body of at most ``completeLimit`` bytes, end: the usual API
/// answer) is delivered complete, without a streaming body; anything else streams from the end of that read.
///
/// Everything runs on the channel's event loop. The read timeout is the longest the upstream may keep the Gate
/// waiting: for the response head once the request went out, for the next body bytes while the reader wants more,
/// for a body chunk to be taken while uploading. Time spent waiting on the client (its next upload chunk, or its
/// reading of the response) does not count, and a body that keeps flowing may take as long as it needs.
final class UpstreamExchangeHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundIn = HTTPClientRequestPart
    typealias OutboundOut = HTTPClientRequestPart

    /// Called once per exchange when it ended: whether the connection may carry another request.
    typealias Completion = @Sendable (_ reusable: Bool) -> Void

    private enum State {
        case idle
        case awaitingHead(EventLoopPromise<UpstreamResponse>, Completion)
        case collecting(HTTPResponseHead, ByteBuffer?, EventLoopPromise<UpstreamResponse>, Completion)
        case streaming(UpstreamResponseBody.Source, Completion)
        case closed
    }

    /// The largest body delivered complete.
    static let completeLimit = 64 << 10

    private let readTimeout: TimeAmount
    private var state = State.idle
    private var context: ChannelHandlerContext?
    private var exchange = 0
    private var requestComplete = false
    private var keepAlive = true
    private var readerHasEnough = false
    private var readWithheld = false
    private var lastActivity = NIODeadline.now()
    /// Body chunks written and not yet taken by the socket.
    private var pendingBodyWrites = 0
    private var timer: Scheduled<Void>?
    /// Called once when the channel closes (the pool forgets an idle connection).
    var onClose: (() -> Void)?

    init(readTimeout: TimeAmount) {
        self.readTimeout = readTimeout
    }

    // MARK: Exchanges

    /// Starts an exchange whose request head the caller writes next; fails `promise` at once on a closed channel.
    func begin(_ promise: EventLoopPromise<UpstreamResponse>, completion: @escaping Completion) {
        guard case .idle = state, let context else {
            promise.fail(UpstreamFailure(.connectionClosed))
            completion(false)
            return
        }
        exchange += 1
        requestComplete = false
        keepAlive = true
        readerHasEnough = false
        state = .awaitingHead(promise, completion)
        lastActivity = .now()
        armTimer(context: context, at: lastActivity + readTimeout)
        if readWithheld {
            readWithheld = false
            context.read()
        }
    }

    func readerWantsMore(exchange: Int) {
        guard exchange == self.exchange, readerHasEnough else { return }
        readerHasEnough = false
        lastActivity = .now()
        if readWithheld, let context {
            readWithheld = false
            context.read()
        }
    }

    /// The body's reader went away. Before the body's end that leaves unread bytes on the connection: close it.
    func readerStopped(exchange: Int) {
        guard exchange == self.exchange, case .streaming = state else { return }
        fail(UpstreamFailure(.connectionClosed), close: true)
    }

    // MARK: Channel events

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        lastActivity = .now()
        switch unwrapOutboundIn(data) {
        case .end:
            requestComplete = true
            context.write(data, promise: promise)
        case .body:
            // Counted until the socket took it: only then is the upstream the one keeping the Gate waiting.
            pendingBodyWrites += 1
            let written = promise ?? context.eventLoop.makePromise()
            let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
            written.futureResult.whenComplete { _ in
                handler.value.pendingBodyWrites -= 1
                handler.value.lastActivity = .now()
            }
            context.write(data, promise: written)
        case .head:
            context.write(data, promise: promise)
        }
    }

    func read(context: ChannelHandlerContext) {
        if readerHasEnough {
            readWithheld = true
        } else {
            context.read()
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        lastActivity = .now()
        switch (unwrapInboundIn(data), state) {
        case (.head(let head), .awaitingHead(let promise, let completion)):
            // NIO's decoder drops 1xx interim answers; what reaches here below 200 is a 101 Switching Protocols,
            // which the Gate never asked for (it does not forward Upgrade) and after which the connection no
            // longer speaks HTTP/1.1.
            if head.status.code < 200 {
                fail(UpstreamFailure(.invalidResponse), close: true)
                return
            }
            keepAlive = head.isKeepAlive
            state = .collecting(head, nil, promise, completion)
        case (.body(var chunk), .collecting(let head, let collected, let promise, let completion)):
            // The first chunk is kept as it is; later ones are appended to it.
            if var collected {
                collected.writeBuffer(&chunk)
                chunk = collected
            }
            state = .collecting(head, chunk, promise, completion)
            if chunk.readableBytes > Self.completeLimit { startStreaming(context: context) }
        case (.end, .collecting(let head, let collected, let promise, let completion)):
            // The connection goes back to the pool before the caller wakes, so its next request finds it idle.
            finish(context: context, completion: completion)
            promise.succeed(UpstreamResponse(head: head, body: .complete(collected ?? ByteBuffer())))
        case (.body(let chunk), .streaming(let source, _)):
            if source.yield(chunk) == .stopProducing { readerHasEnough = true }
        case (.end, .streaming(let source, let completion)):
            finish(context: context, completion: completion)
            source.finish()
        default:
            // Bytes outside an exchange, or a body before a head: the connection cannot be trusted any longer.
            fail(UpstreamFailure(.invalidResponse), close: true)
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        // The head came without the whole body: the rest streams.
        if case .collecting = state { startStreaming(context: context) }
        context.fireChannelReadComplete()
    }

    /// Hands the collected head and body bytes to the caller as a streaming response.
    private func startStreaming(context: ChannelHandlerContext) {
        guard case .collecting(let head, let collected, let promise, let completion) = state else { return }
        let body = UpstreamResponseBody.makeSequence(
            backPressureStrategy: .init(lowWatermark: 4, highWatermark: 16),
            finishOnDeinit: false,
            delegate: UpstreamBodyDemand(handler: NIOLoopBound(self, eventLoop: context.eventLoop), exchange: exchange)
        )
        state = .streaming(body.source, completion)
        if let collected, body.source.yield(collected) == .stopProducing { readerHasEnough = true }
        promise.succeed(UpstreamResponse(head: head, body: .streaming(body.sequence)))
    }

    /// The exchange ended at the response's end: the connection is reusable when both sides kept it alive and the
    /// whole request went out.
    private func finish(context: ChannelHandlerContext, completion: Completion) {
        state = .idle
        timer?.cancel()
        timer = nil
        // An idle connection reads again, so a close or stray bytes from the upstream are seen at once.
        readerHasEnough = false
        if readWithheld {
            readWithheld = false
            context.read()
        }
        let reusable = keepAlive && requestComplete && context.channel.isActive
        if !reusable { context.close(promise: nil) }
        completion(reusable)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail(UpstreamFailure(error is HTTPParserError ? .invalidResponse : .connectionClosed), close: true)
    }

    func channelInactive(context: ChannelHandlerContext) {
        fail(UpstreamFailure(.connectionClosed), close: false)
        state = .closed
        onClose?()
        onClose = nil
        context.fireChannelInactive()
    }

    // MARK: Failure and timeout

    private func fail(_ failure: UpstreamFailure, close: Bool) {
        timer?.cancel()
        timer = nil
        let ending = state
        if case .closed = state {} else { state = close ? .closed : .idle }
        switch ending {
        case .awaitingHead(let promise, let completion), .collecting(_, _, let promise, let completion):
            promise.fail(failure)
            completion(false)
        case .streaming(let source, let completion):
            source.finish(failure)
            completion(false)
        case .idle, .closed:
            break
        }
        if close { context?.close(promise: nil) }
    }

    private func armTimer(context: ChannelHandlerContext, at deadline: NIODeadline) {
        timer?.cancel()
        let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(deadline: deadline) { handler.value.timerFired() }
    }

    private func timerFired() {
        timer = nil
        switch state {
        case .awaitingHead, .collecting, .streaming:
            let due = lastActivity + readTimeout
            // Waiting on the upstream: the request is out and the reader wants bytes, or a body chunk waits for the
            // upstream to take it. Otherwise the client is the slow side, which this timeout does not judge.
            var headArrived = true
            if case .awaitingHead = state { headArrived = false }
            let upstreamOwes = pendingBodyWrites > 0 || (!readerHasEnough && (requestComplete || headArrived))
            if due <= .now() && upstreamOwes {
                fail(UpstreamFailure(.readTimeout), close: true)
            } else if let context {
                armTimer(context: context, at: max(due, .now() + .nanoseconds(readTimeout.nanoseconds / 4)))
            }
        case .idle, .closed:
            break
        }
    }
}
