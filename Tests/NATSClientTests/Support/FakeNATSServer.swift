// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// A NATS server the test plays over in-memory channels, with no socket. Each time the client connects, its
// connection core (through the configuration's connector) gets a new NIOAsyncTestingChannel with the pipeline it
// installs on a TCP connection; the channel is greeted with an INFO line and its server end (FakeNATSConnection)
// is handed to the test, which reads what the client wrote and answers step by step. It checks nothing on its own;
// the test decides what to answer.
//
// The client runs on the server's NIOAsyncTestingEventLoop, whose clock moves only when the test moves it
// (advanceClock): the handshake timeout, keepalive pings, reconnect waits and request timeouts fire when the test
// says, not when a loaded machine gets round to them.

import NIOConcurrencyHelpers
import NIOCore
import NIOEmbedded

@testable import NATSClient

/// A scripted NATS server on in-memory channels.
final class FakeNATSServer: Sendable {
    /// The INFO a connection gets unless the test gives another.
    static let defaultInfo = #"{"server_id":"FAKE","version":"2.10.0","proto":1,"headers":true,"max_payload":1048576}"#

    /// The INFO line every new connection gets first (without `INFO `).
    let info: String
    /// The event loop the client runs on (that of its channels), with the test's clock.
    let eventLoop = NIOAsyncTestingEventLoop()
    /// The server URL for the client's configuration; its host is never resolved.
    let url = "nats://fake-nats:4222"
    private let accepted = FakeAsyncQueue<FakeNATSConnection>()
    private let opened = NIOLockedValueBox<[FakeNATSConnection]>([])

    /// A server that greets each connection with `INFO <info>`.
    init(info: String = FakeNATSServer.defaultInfo) {
        self.info = info
    }

    /// Opens the client's connections on this server: the configuration's connector.
    var connector: NATSChannelConnector {
        NATSChannelConnector { server, eventLoop, initializer in
            self.open(server, on: eventLoop, initializer)
        }
    }

    /// A new channel with the client's pipeline (`initializer`) behind the read pause, active and about to be
    /// greeted; its server end is queued for ``nextConnection(timeout:)``. Runs on the event loop.
    private func open(
        _ server: NATSServerAddress,
        on loop: any EventLoop,
        _ initializer: @escaping NATSChannelConnector.Initializer
    ) -> EventLoopFuture<any Channel> {
        guard loop === eventLoop else {
            let error = FakeProtocolViolation(description: "the client does not run on the fake server's event loop")
            return loop.makeFailedFuture(error)
        }
        let channel = NIOAsyncTestingChannel(loop: eventLoop)
        let greeting = ByteBuffer(string: "INFO \(info)\r\n")
        return initializer(channel).flatMapThrowing { () -> any Channel in
            let pause = FakeReadPauseHandler(channel: channel)
            try channel.pipeline.syncOperations.addHandler(pause, position: .first)
            let readPause = NIOLoopBound(pause, eventLoop: channel.eventLoop)
            let connection = FakeNATSConnection(channel: channel, readPause: readPause)
            channel.register(promise: nil)
            channel.connect(to: try SocketAddress(ipAddress: "127.0.0.1", port: server.port), promise: nil)
            // The greeting is the first read, after the connect completed.
            channel.eventLoop.execute { connection.receive(greeting) }
            self.opened.withLockedValue { $0.append(connection) }
            self.accepted.push(connection)
            return channel
        }
    }

    /// The next connection the client opened, waiting up to `timeout` (real time) for it. A reconnect opens one only
    /// once the client's clock passed its wait (``advanceClock(by:)``).
    func nextConnection(timeout: Duration = .seconds(5)) async throws -> FakeNATSConnection {
        try await accepted.next(timeout: timeout, what: "a client connection")
    }

    /// Moves the client's clock on by `amount`, running the timers due by then, and what they set off, in order.
    func advanceClock(by amount: TimeAmount) async {
        await eventLoop.advanceTime(by: amount)
    }

    /// Whether `condition` holds within `timeout` while time passes on the client's clock as well: before each new
    /// check it moves on by `step`.
    func eventually(
        timeout: Duration = .seconds(10),
        clockStep step: TimeAmount = .milliseconds(1),
        _ condition: () -> Bool
    ) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if condition() { return true }
            await advanceClock(by: step)
            try? await Task.sleep(for: .milliseconds(1))
        }
        return condition()
    }

    /// Closes the connections still open and shuts the event loop down, cancelling the timers left (a reconnect
    /// wait). Call it once the client is closed: a client on a stopped loop cannot close.
    func stop() async {
        for connection in opened.withLockedValue({ $0 }) { await connection.close() }
        await eventLoop.shutdownGracefully()
    }
}
