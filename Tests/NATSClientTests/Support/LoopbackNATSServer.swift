// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// A NATS server inside the test process on a loopback socket: it accepts connections on 127.0.0.1, greets each
// with an INFO line and hands the test every operation the client sends, so the test plays the server's part step
// by step. It checks nothing on its own; the test decides what to answer.
//
// The core's tests run on FakeNATSServer (in memory, no socket) except one that needs a socket's event loop:
// NATSCoreMessagingTests.aRequestLoopOnTheTaskExecutorRunsOnTheConnectionsEventLoop checks that a request loop on
// the client's task executor runs on one thread of its MultiThreadedEventLoopGroup. An in-memory channel lives on a
// NIOAsyncTestingEventLoop (a dispatch queue, not an event loop of a group), so that test needs a channel the
// group's loop serves: a TCP connection to this server.

import NIOCore
import NIOPosix

/// A scripted NATS server on `127.0.0.1` and a free port.
final class LoopbackNATSServer: Sendable {
    /// The port it listens on.
    let port: Int
    private let listener: any Channel
    private let accepted: FakeAsyncQueue<LoopbackNATSConnection>

    /// `nats://127.0.0.1:<port>`.
    var url: String { "nats://127.0.0.1:\(port)" }

    private init(port: Int, listener: any Channel, accepted: FakeAsyncQueue<LoopbackNATSConnection>) {
        self.port = port
        self.listener = listener
        self.accepted = accepted
    }

    /// Starts listening; each connection is greeted with `INFO <info>`.
    static func start(info: String = FakeNATSServer.defaultInfo) async throws -> LoopbackNATSServer {
        let accepted = FakeAsyncQueue<LoopbackNATSConnection>()
        let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let connection = LoopbackNATSConnection(channel: channel)
                    try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(FakeClientOperationDecoder()))
                    try channel.pipeline.syncOperations.addHandler(LoopbackConnectionHandler(connection: connection))
                    var greeting = channel.allocator.buffer(capacity: info.utf8.count + 7)
                    greeting.writeString("INFO \(info)\r\n")
                    channel.writeAndFlush(greeting, promise: nil)
                    accepted.push(connection)
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        guard let port = listener.localAddress?.port else { throw FakeProtocolViolation(description: "no port") }
        return LoopbackNATSServer(port: port, listener: listener, accepted: accepted)
    }

    /// The next connection a client opened, waiting up to `timeout` for it.
    func nextConnection(timeout: Duration = .seconds(5)) async throws -> LoopbackNATSConnection {
        try await accepted.next(timeout: timeout, what: "a client connection")
    }

    /// Stops listening (connections already open stay open).
    func stop() async {
        try? await listener.close()
    }
}

/// One client connection on the loopback server.
final class LoopbackNATSConnection: FakeNATSPeer {
    let channel: any Channel
    fileprivate let operations = FakeAsyncQueue<FakeClientOperation>()

    fileprivate init(channel: any Channel) {
        self.channel = channel
    }

    func next(timeout: Duration) async throws -> FakeClientOperation {
        try await operations.next(timeout: timeout, what: "a client operation")
    }

    func send(_ text: String) async throws {
        try await channel.writeAndFlush(ByteBuffer(string: text))
    }
}

private final class LoopbackConnectionHandler: ChannelInboundHandler, Sendable {
    typealias InboundIn = FakeClientOperation

    let connection: LoopbackNATSConnection

    init(connection: LoopbackNATSConnection) {
        self.connection = connection
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        connection.operations.push(unwrapInboundIn(data))
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        connection.operations.fail(error)
        context.close(promise: nil)
    }
}
