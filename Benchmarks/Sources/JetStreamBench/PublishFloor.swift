// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// The floor of `js-pub-sync` awaited from Swift's global executor: the least work any SwiftNIO-based client must do
// when the task that publishes runs off the event loop, as `ours` does. One channel handler; per message the task
// hands the PUB to the event loop (`execute`: the loop's thread is woken) and waits on a continuation the handler
// resumes when the PubAck arrives (a thread of the global pool is woken). No subject checks, no headers, no request
// multiplexer, no timer, no PubAck parse beyond its first bytes. The two wake-ups per message are what any such
// client pays on this machine; what NATSClient adds on top of them a faster design could still remove.
//
// Each publish has a reply subject of its own (`_INBOX.pubfloor.<n>` under one wildcard subscription), as nats.c's and
// nats.go's synchronous publishes (a request each) and NATSClient's have: a client that reused one reply subject would
// take a late PubAck of a publish it gave up on as the answer to the next one. It costs the server too: every new
// subject misses its subscription cache (docs/benchmarks.md gives what a fixed reply subject saved).

import NIOCore
import NIOPosix

/// Publishes `count` messages of `payload` to `subject`, one at a time, each awaited from the calling task.
func publishFloor(host: String, port: Int, subject: String, payload: ByteBuffer, count: Int) async throws {
    let eventLoop = MultiThreadedEventLoopGroup.singleton.next()
    let ready = eventLoop.makePromise(of: Void.self)
    let handler = PublishFloorHandler(subject: subject, ready: ready)
    let channel = try await ClientBootstrap(group: eventLoop)
        .channelOption(.socketOption(.tcp_nodelay), value: 1)
        .channelInitializer { channel in
            channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(handler) }
        }
        .connect(host: host, port: port).get()
    try await ready.futureResult.get()
    for _ in 0..<count {
        try await withCheckedThrowingContinuation { (acknowledged: CheckedContinuation<Void, any Error>) in
            eventLoop.execute { handler.publish(payload, acknowledged: acknowledged) }
        }
    }
    try await channel.close()
}

/// Used only on its channel's event loop (the task reaches it through `execute`).
private final class PublishFloorHandler: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private static let inbox = "_INBOX.pubfloor"
    /// The number of the last publish: its reply subject is `inbox.<published>`.
    private var published = 0
    private let subject: String
    private let ready: EventLoopPromise<Void>
    private var context: ChannelHandlerContext?
    private var buffer = ByteBuffer()
    private var started = false
    private var isReady = false
    private var waiter: CheckedContinuation<Void, any Error>?

    init(subject: String, ready: EventLoopPromise<Void>) {
        self.subject = subject
        self.ready = ready
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func publish(_ payload: ByteBuffer, acknowledged: CheckedContinuation<Void, any Error>) {
        guard let context else {
            acknowledged.resume(throwing: FloorFailure("not connected"))
            return
        }
        waiter = acknowledged
        var output = context.channel.allocator.buffer(capacity: payload.readableBytes + 64)
        published += 1
        output.writeString("PUB \(subject) \(Self.inbox).\(published) \(payload.readableBytes)\r\n")
        output.writeImmutableBuffer(payload)
        output.writeStaticString("\r\n")
        context.writeAndFlush(wrapOutboundOut(output), promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var incoming = unwrapInboundIn(data)
        buffer.writeBuffer(&incoming)
        while let lineEnd = buffer.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) {
            let length = lineEnd - buffer.readerIndex + 1
            guard let line = buffer.getString(at: buffer.readerIndex, length: length) else { return }
            if line.hasPrefix("MSG ") {
                // MSG <inbox> <sid> <size>: the PubAck, `{"stream":…,"seq":…}` (an API error is `{"error":…}`).
                // (On UTF-8 bytes: "\r\n" is one Character of the String.)
                let fields = line.utf8.dropLast(2).split(separator: UInt8(ascii: " "))
                guard let size = fields.last.flatMap({ Int(String(decoding: $0, as: UTF8.self)) }) else {
                    fail(context, FloorFailure("bad MSG line \(line)"))
                    return
                }
                guard buffer.readableBytes >= length + size + 2 else { return }
                let answer = buffer.getString(at: buffer.readerIndex + length, length: size) ?? ""
                buffer.moveReaderIndex(forwardBy: length + size + 2)
                guard answer.hasPrefix("{\"stream\"") else {
                    fail(context, FloorFailure("not stored: \(answer)"))
                    return
                }
                waiter.take()?.resume()
                continue
            }
            buffer.moveReaderIndex(forwardBy: length)
            if line.hasPrefix("PING") {
                context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: "PONG\r\n")), promise: nil)
            } else if line.hasPrefix("INFO"), !started {
                started = true
                context.writeAndFlush(
                    wrapOutboundOut(
                        ByteBuffer(
                            string: "CONNECT {\"verbose\":false,\"pedantic\":false,\"headers\":true,"
                                + "\"no_responders\":true}\r\nSUB \(Self.inbox).* 1\r\nPING\r\n")), promise: nil)
            } else if line.hasPrefix("PONG"), !isReady {
                isReady = true
                ready.succeed()
            } else if line.hasPrefix("-ERR") {
                fail(context, FloorFailure(line))
                return
            }
        }
        buffer.discardReadBytes()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail(context, error)
    }

    private func fail(_ context: ChannelHandlerContext, _ error: any Error) {
        ready.fail(error)
        waiter.take()?.resume(throwing: error)
        context.close(promise: nil)
    }
}

private struct FloorFailure: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
