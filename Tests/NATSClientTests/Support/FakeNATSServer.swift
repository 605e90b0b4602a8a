// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// A NATS server inside the test process: it accepts connections on loopback, greets each with an INFO line
// and hands the test every operation the client sends, so the test plays the server's part step by step.
// It checks nothing on its own; the test decides what to answer.

import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A scripted NATS server on `127.0.0.1` and a free port.
final class FakeNATSServer: Sendable {
    /// The port it listens on.
    let port: Int
    /// The INFO line every new connection gets first (without `INFO `).
    let info: String
    private let listener: any Channel
    private let accepted: FakeAsyncQueue<FakeNATSConnection>

    /// `nats://127.0.0.1:<port>`.
    var url: String { "nats://127.0.0.1:\(port)" }

    private init(port: Int, info: String, listener: any Channel, accepted: FakeAsyncQueue<FakeNATSConnection>) {
        self.port = port
        self.info = info
        self.listener = listener
        self.accepted = accepted
    }

    /// Starts listening; each connection is greeted with `INFO <info>`.
    static func start(
        info: String = #"{"server_id":"FAKE","version":"2.10.0","proto":1,"headers":true,"max_payload":1048576}"#
    ) async throws -> FakeNATSServer {
        let accepted = FakeAsyncQueue<FakeNATSConnection>()
        let listener = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let connection = FakeNATSConnection(channel: channel)
                    try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(FakeClientOperationDecoder()))
                    try channel.pipeline.syncOperations.addHandler(FakeConnectionHandler(connection: connection))
                    var greeting = channel.allocator.buffer(capacity: info.utf8.count + 7)
                    greeting.writeString("INFO \(info)\r\n")
                    channel.writeAndFlush(greeting, promise: nil)
                    accepted.push(connection)
                }
            }
            .bind(host: "127.0.0.1", port: 0)
            .get()
        guard let port = listener.localAddress?.port else { throw FakeProtocolViolation(description: "no port") }
        return FakeNATSServer(port: port, info: info, listener: listener, accepted: accepted)
    }

    /// The next connection a client opened, waiting up to `timeout` for it.
    func nextConnection(timeout: Duration = .seconds(5)) async throws -> FakeNATSConnection {
        try await accepted.next(timeout: timeout, what: "a client connection")
    }

    /// Stops listening (connections already open stay open).
    func stop() async {
        try? await listener.close()
    }
}

/// One client connection on the fake server.
final class FakeNATSConnection: Sendable {
    let channel: any Channel
    fileprivate let operations = FakeAsyncQueue<FakeClientOperation>()

    fileprivate init(channel: any Channel) {
        self.channel = channel
    }

    /// The next operation the client sent, waiting up to `timeout`.
    func next(timeout: Duration = .seconds(5)) async throws -> FakeClientOperation {
        try await operations.next(timeout: timeout, what: "a client operation")
    }

    /// Operations already received and not yet taken, without waiting.
    func takeReceived() -> [FakeClientOperation] { operations.takeAll() }

    /// Writes `text` to the client as it is (the test writes the CRLFs).
    func send(_ text: String) async throws {
        try await channel.writeAndFlush(ByteBuffer(string: text))
    }

    /// Plays the server's side of the handshake: reads `CONNECT` and `PING`, answers `PONG`; returns the
    /// CONNECT JSON.
    func acceptHandshake(timeout: Duration = .seconds(5)) async throws -> String {
        guard case .connect(let json) = try await next(timeout: timeout) else {
            throw FakeProtocolViolation(description: "the client did not start with CONNECT")
        }
        guard try await next(timeout: timeout) == .ping else {
            throw FakeProtocolViolation(description: "the client did not PING after CONNECT")
        }
        try await send("PONG\r\n")
        return json
    }

    /// Stops reading from the socket, so the client's writes back up (TCP back-pressure).
    func pauseReading() async throws {
        try await channel.setOption(.autoRead, value: false).get()
    }

    /// Reads again.
    func resumeReading() async throws {
        try await channel.setOption(.autoRead, value: true).get()
        channel.read()
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

private final class FakeConnectionHandler: ChannelInboundHandler, Sendable {
    typealias InboundIn = FakeClientOperation

    let connection: FakeNATSConnection

    init(connection: FakeNATSConnection) {
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

/// An unbounded queue a test awaits with a timeout; items pushed from an event loop. One waiter at a time.
final class FakeAsyncQueue<Element: Sendable>: Sendable {
    private struct State {
        var items: [Element] = []
        var waiter: (id: UInt64, continuation: CheckedContinuation<Element, any Error>)?
        var nextID: UInt64 = 0
        /// A wait whose timer fired before it registered its continuation.
        var expiredID: UInt64?
        var failure: (any Error)?
    }

    private let state = NIOLockedValueBox(State())

    func push(_ element: Element) {
        let waiter: CheckedContinuation<Element, any Error>? = state.withLockedValue { state in
            guard let waiter = state.waiter else {
                state.items.append(element)
                return nil
            }
            state.waiter = nil
            return waiter.continuation
        }
        waiter?.resume(returning: element)
    }

    func fail(_ error: any Error) {
        let waiter = state.withLockedValue { state in
            state.failure = error
            defer { state.waiter = nil }
            return state.waiter?.continuation
        }
        waiter?.resume(throwing: error)
    }

    func takeAll() -> [Element] {
        state.withLockedValue { state in
            defer { state.items.removeAll() }
            return state.items
        }
    }

    /// The next element; throws ``FakeTimeout`` after `timeout`, or the failure the queue saw.
    func next(timeout: Duration, what: String) async throws -> Element {
        let id = state.withLockedValue { state in
            state.nextID += 1
            return state.nextID
        }
        let expired = FakeTimeout(description: "no \(what) within \(timeout)")
        let timer = Task {
            try await Task.sleep(for: timeout)
            let waiter: CheckedContinuation<Element, any Error>? = state.withLockedValue { state in
                guard let waiter = state.waiter, waiter.id == id else {
                    state.expiredID = id
                    return nil
                }
                state.waiter = nil
                return waiter.continuation
            }
            waiter?.resume(throwing: expired)
        }
        defer { timer.cancel() }
        return try await withCheckedThrowingContinuation { continuation in
            let immediate: Result<Element, any Error>? = state.withLockedValue { state in
                if !state.items.isEmpty { return .success(state.items.removeFirst()) }
                if let failure = state.failure { return .failure(failure) }
                if state.expiredID == id { return .failure(expired) }
                precondition(state.waiter == nil, "one waiter at a time")
                state.waiter = (id, continuation)
                return nil
            }
            if let immediate { continuation.resume(with: immediate) }
        }
    }
}

/// A fake-server wait ran out.
struct FakeTimeout: Error, CustomStringConvertible {
    let description: String
}
