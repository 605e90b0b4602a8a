// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// The floor of a pull fetch on SwiftNIO: the least work any NIO-based client must do for `js-fetch-<B>`, with
// nothing of NATSClient on the timed path. One channel handler on the event loop: CONNECT, one wildcard inbox
// subscription, a pull request for B messages with a reply subject of its own under it (as any correct client must:
// a late status of an earlier pull must not end the next), and for each delivered MSG only the line split needed to
// find its reply subject and payload, then `PUB <reply> 4\r\n+ACK\r\n`; the next pull when B have arrived; writes
// flushed once per read. No tasks, no futures per message, no subject parsing into metadata, no copies of payloads.
// What NATSClient adds on top of this is what a faster design could still remove; what this costs is not.

import NIOCore
import NIOPosix

/// Runs the floor's fetch loop; returns when `count` messages were received and acknowledged.
func fetchFloor(host: String, port: Int, stream: String, consumer: String, count: Int, batch: Int) async throws {
    let done = MultiThreadedEventLoopGroup.singleton.next().makePromise(of: Void.self)
    let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
        .channelOption(.socketOption(.tcp_nodelay), value: 1)
        .channelInitializer { channel in
            channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHandler(
                    FetchFloorHandler(
                        pullSubject: "$JS.API.CONSUMER.MSG.NEXT.\(stream).\(consumer)", count: count, batch: batch,
                        done: done))
            }
        }
        .connect(host: host, port: port).get()
    try await done.futureResult.get()
    try await channel.close()
}

private final class FetchFloorHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let pullSubject: String
    private let count: Int
    private let batch: Int
    private let done: EventLoopPromise<Void>
    private var buffer = ByteBuffer()
    private var received = 0
    private var inBatch = 0
    private var started = false
    /// The number of the last pull: its reply subject is `_INBOX.floor.<pulls>`.
    private var pulls = 0

    init(pullSubject: String, count: Int, batch: Int, done: EventLoopPromise<Void>) {
        self.pullSubject = pullSubject
        self.count = count
        self.batch = batch
        self.done = done
    }

    private func pull(into output: inout ByteBuffer) {
        let body = "{\"batch\":\(batch),\"expires\":5000000000}"
        pulls += 1
        output.writeString("PUB \(pullSubject) _INBOX.floor.\(pulls) \(body.utf8.count)\r\n\(body)\r\n")
        inBatch = 0
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var incoming = unwrapInboundIn(data)
        buffer.writeBuffer(&incoming)
        var output = context.channel.allocator.buffer(capacity: 4096)
        while true {
            // One line: its length, the start of its last space-separated field and of its fourth (a MSG's reply).
            guard
                let line = buffer.withUnsafeReadableBytes({ bytes -> (length: Int, fields: [Int])? in
                    var fields = [0]
                    for index in 0..<max(0, bytes.count - 1) {
                        if bytes[index] == 13, bytes[index + 1] == 10 { return (index, fields) }
                        if bytes[index] == 32 { fields.append(index + 1) }
                    }
                    return nil
                })
            else { break }
            let first = buffer.getInteger(at: buffer.readerIndex, as: UInt8.self) ?? 0
            if first == UInt8(ascii: "M") || first == UInt8(ascii: "H") {
                // MSG <subject> <sid> [reply] <size>, HMSG <subject> <sid> [reply] <header size> <total size>
                let sizeStart = line.fields[line.fields.count - 1]
                guard
                    let text = buffer.getString(
                        at: buffer.readerIndex + sizeStart, length: line.length - sizeStart),
                    let size = Int(text)
                else {
                    done.fail(BenchFailureMessage("bad MSG line"))
                    return
                }
                guard buffer.readableBytes >= line.length + 2 + size + 2 else { break }
                if first == UInt8(ascii: "H") {
                    // A status (404 no messages, 408 timeout): pull again.
                    pull(into: &output)
                } else {
                    if line.fields.count == 5 {
                        output.writeStaticString("PUB ")
                        let replyStart = line.fields[3]
                        output.writeBytes(
                            buffer.readableBytesView[
                                (buffer.readerIndex + replyStart)..<(buffer.readerIndex + line.fields[4] - 1)])
                        output.writeStaticString(" 4\r\n+ACK\r\n")
                    }
                    received += 1
                    inBatch += 1
                }
                buffer.moveReaderIndex(forwardBy: line.length + 2 + size + 2)
                if received == count {
                    context.writeAndFlush(wrapOutboundOut(output), promise: nil)
                    done.succeed()
                    return
                }
                if first == UInt8(ascii: "M"), inBatch == batch { pull(into: &output) }
            } else {
                let text = buffer.getString(at: buffer.readerIndex, length: line.length) ?? ""
                if text.hasPrefix("PING") { output.writeStaticString("PONG\r\n") }
                if text.hasPrefix("INFO"), !started {
                    started = true
                    output.writeStaticString(
                        "CONNECT {\"verbose\":false,\"pedantic\":false,\"headers\":true,\"no_responders\":true}\r\n")
                    output.writeStaticString("SUB _INBOX.floor.* 1\r\n")
                    pull(into: &output)
                }
                if text.hasPrefix("-ERR") {
                    done.fail(BenchFailureMessage(text))
                    return
                }
                buffer.moveReaderIndex(forwardBy: line.length + 2)
            }
        }
        buffer.discardReadBytes()
        if output.readableBytes > 0 { context.writeAndFlush(wrapOutboundOut(output), promise: nil) }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        done.fail(error)
        context.close(promise: nil)
    }
}

private struct BenchFailureMessage: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
