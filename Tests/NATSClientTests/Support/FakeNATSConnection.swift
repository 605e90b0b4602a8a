// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// The server's end of one in-memory client connection: what the client wrote is read from the channel's outbound
// side and decoded; what the server says is written inbound, one read per send.

import NIOConcurrencyHelpers
import NIOCore
import NIOEmbedded

/// One client connection on ``FakeNATSServer``.
final class FakeNATSConnection: FakeNATSPeer {
    /// The client's channel; the server is its far end.
    let channel: NIOAsyncTestingChannel
    private let readPause: NIOLoopBound<FakeReadPauseHandler>
    /// What the client wrote that was taken from the channel and not yet decoded.
    private let unread = NIOLockedValueBox(ByteBuffer())

    init(channel: NIOAsyncTestingChannel, readPause: NIOLoopBound<FakeReadPauseHandler>) {
        self.channel = channel
        self.readPause = readPause
    }

    func next(timeout: Duration) async throws -> FakeClientOperation {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let operation = try unread.withLockedValue({ unread in try Self.decode(&unread) }) { return operation }
            if var written = try await channel.readOutbound(as: ByteBuffer.self) {
                unread.withLockedValue { _ = $0.writeBuffer(&written) }
                continue
            }
            guard ContinuousClock.now < deadline else {
                throw FakeTimeout(description: "no client operation within \(timeout)")
            }
            try await Task.sleep(for: .milliseconds(1))
        }
    }

    /// The next whole operation in `unread`, consumed; what was decoded is dropped from the buffer now and then.
    private static func decode(_ unread: inout ByteBuffer) throws -> FakeClientOperation? {
        let operation = try FakeClientOperationDecoder.next(from: &unread)
        if unread.readerIndex >= 1 << 20 { unread.discardReadBytes() }
        return operation
    }

    /// Writes `text` to the client as one read, and runs what the client did about it on its event loop.
    func send(_ text: String) async throws {
        guard channel.isActive else { throw ChannelError.ioOnClosedChannel }
        try await channel.writeInbound(ByteBuffer(string: text))
        await channel.testingEventLoop.run()
    }

    /// Hands `buffer` to the client as one read; on the event loop.
    func receive(_ buffer: ByteBuffer) {
        channel.pipeline.syncOperations.fireChannelRead(NIOAny(buffer))
        channel.pipeline.syncOperations.fireChannelReadComplete()
    }

    /// Stops reading: the client's writes stay pending and its channel turns unwritable, as with a socket whose
    /// peer stopped reading (see ``FakeReadPauseHandler``).
    func pauseReading() async throws {
        try await channel.testingEventLoop.executeInContext { self.readPause.value.pause() }
    }

    /// Reads again: the pending writes go through in order and the channel is writable again.
    func resumeReading() async throws {
        try await channel.testingEventLoop.executeInContext { self.readPause.value.resume() }
        await channel.testingEventLoop.run()
    }

    /// Closes the connection from the server's side.
    func close() async {
        try? await channel.close()
    }

    /// Completes when the client's side closed the connection (or the server did).
    func waitUntilClosed() async {
        try? await channel.closeFuture.get()
    }
}
