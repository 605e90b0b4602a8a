// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// A server that stops reading, on an in-memory channel: the socket's side of TCP back-pressure.

import NIOCore
import NIOEmbedded

/// The first handler of an in-memory connection's pipeline (the socket's place). While paused, the client's writes
/// stay pending with their promises open, as in the send buffer of a socket whose peer stopped reading, and once
/// more than ``highWaterMark`` bytes are pending the channel turns unwritable, as a socket channel does at its
/// write-buffer high-water mark. Resuming writes everything pending in order, completes the promises, and makes
/// the channel writable again. Closing fails what is still pending.
final class FakeReadPauseHandler: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// Pending bytes beyond which the channel is unwritable: NIO's default high-water mark for sockets.
    static let highWaterMark = 64 * 1024

    private let channel: NIOAsyncTestingChannel
    private var context: ChannelHandlerContext?
    private var paused = false
    private var pending: [(buffer: ByteBuffer, promise: EventLoopPromise<Void>?)] = []
    private var pendingBytes = 0

    init(channel: NIOAsyncTestingChannel) {
        self.channel = channel
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        failPending()
        self.context = nil
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard paused else {
            context.write(data, promise: promise)
            return
        }
        let buffer = unwrapOutboundIn(data)
        pending.append((buffer, promise))
        pendingBytes += buffer.readableBytes
        if pendingBytes > Self.highWaterMark, channel.isWritable {
            channel.isWritable = false
            context.fireChannelWritabilityChanged()
        }
    }

    func flush(context: ChannelHandlerContext) {
        // While paused the pending writes wait for resume(), which flushes them.
        if !paused { context.flush() }
    }

    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        if mode == .all { failPending() }
        context.close(mode: mode, promise: promise)
    }

    /// Stops passing writes on.
    func pause() {
        paused = true
    }

    /// Writes what is pending, in order, and makes the channel writable again.
    func resume() {
        guard paused, let context else { return }
        paused = false
        let writes = pending
        pending.removeAll()
        pendingBytes = 0
        for write in writes { context.write(wrapOutboundOut(write.buffer), promise: write.promise) }
        context.flush()
        if !channel.isWritable {
            channel.isWritable = true
            context.fireChannelWritabilityChanged()
        }
    }

    private func failPending() {
        let writes = pending
        pending.removeAll()
        pendingBytes = 0
        for write in writes { write.promise?.fail(ChannelError.ioOnClosedChannel) }
    }
}
