// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// The connection core's subscriptions, reconnect buffering, slow consumers, drain, request/reply and headers,
// against a scripted server on in-memory channels (no nats-server, no socket; one test on a loopback socket, see
// LoopbackNATSServer); the client's clock moves when the test moves it.

import NATSClient
import NIOCore
import NIOPosix
import Testing
import VettIDTestSupport

@Suite struct NATSCoreMessagingTests {
    @Test func publishesWhileDisconnectedAreSentAfterTheResubscriptionsOnReconnect() async throws {
        let (server, client, connection, _) = try await FakeServerSupport.connected()
        defer {
            Task {
                await client.close(); await server.stop()
            }
        }
        let subscription = try client.subscribe(to: "orders.*", queue: "workers")
        subscription.unsubscribe(after: 5)
        #expect(try await connection.next() == .subscribe(subject: "orders.*", queue: "workers", sid: 1))
        #expect(try await connection.next() == .unsubscribe(sid: 1, max: 5))
        try await connection.send("MSG orders.1 1 3\r\none\r\n")
        var messages = subscription.makeAsyncIterator()
        #expect(await messages.next()?.payloadString == "one")

        await connection.close()
        #expect(await eventually { !client.isConnected })
        try client.publish("buffered-1", to: "audit")
        try client.publish("buffered-2", to: "audit", replyTo: "answers")

        await server.advanceClock(by: .milliseconds(20))  // the reconnect wait
        let second = try await server.nextConnection()
        _ = try await second.acceptHandshake()
        // The subscription again with what is left of its limit, then the buffered publishes in order.
        #expect(try await second.next() == .subscribe(subject: "orders.*", queue: "workers", sid: 1))
        #expect(try await second.next() == .unsubscribe(sid: 1, max: 4))
        #expect(try await second.next() == .publish(subject: "audit", replyTo: nil, payload: "buffered-1"))
        #expect(try await second.next() == .publish(subject: "audit", replyTo: "answers", payload: "buffered-2"))
    }

    /// A client without reconnects (a frame it misreads closes it, and a test's waits end at once) subscribed to
    /// `parts`, the server having seen the SUB; and an iterator over the subscription.
    private func subscribedToParts() async throws -> (
        FakeNATSServer, NATSClient, FakeNATSConnection, NATSSubscription.AsyncIterator
    ) {
        let (server, client, connection, _) = try await FakeServerSupport.connected { $0.reconnect = .disabled }
        let subscription = try client.subscribe(to: "parts")
        #expect(try await connection.next() == .subscribe(subject: "parts", queue: nil, sid: 1))
        return (server, client, connection, subscription.makeAsyncIterator())
    }

    @Test func framesSplitAcrossReadsAreReassembled() async throws {
        let (server, client, connection, iterator) = try await subscribedToParts()
        defer {
            Task {
                await client.close(); await server.stop()
            }
        }
        var messages = iterator
        // Cut inside the control line, inside the payload, and between payload and CRLF (each send is one read of
        // the client's); then many in one read.
        for piece in ["MS", "G parts 1 11\r\nhello", " worl", "d", "\r\n"] {
            try await connection.send(piece)
        }
        #expect(await messages.next()?.payloadString == "hello world")
        try await connection.send((1...300).map { "MSG parts 1 \(String($0).utf8.count)\r\n\($0)\r\n" }.joined())
        var kept: [NATSMessage] = []
        for expected in 1...300 {
            guard let message = await messages.next(), message.payloadString == String(expected) else {
                Issue.record("message \(expected) missing or out of order")
                return
            }
            kept.append(message)
        }
        // The payloads of one read share a buffer of their own: later reads (a partial frame kept and then
        // completed) do not change what the application kept.
        try await connection.send("MSG parts 1 5\r\nla")
        try await connection.send("ter\r\n")
        #expect(await messages.next()?.payloadString == "later")
        #expect(kept.map(\.payloadString) == (1...300).map(String.init))
        // Each keeps at most its read's payloads (under 900 bytes here), not the read's buffer (over 2 KiB here).
        #expect(kept.allSatisfy { $0.payload.storageCapacity < 2048 }, "a kept message holds only its read's payloads")
    }

    /// One read with messages with and without headers around another operation: the messages come out in order,
    /// the one with headers keeps them, and the operation is answered (the messages before it were delivered first).
    @Test func messagesWithAndWithoutHeadersAroundAPingInOneRead() async throws {
        let (server, client, connection, iterator) = try await subscribedToParts()
        defer {
            Task {
                await client.close(); await server.stop()
            }
        }
        var messages = iterator
        // The header block "NATS/1.0\r\nX-Key: v\r\n\r\n" is 22 bytes; with the payload "b", 23.
        try await connection.send(
            "MSG parts 1 1\r\na\r\nHMSG parts 1 22 23\r\nNATS/1.0\r\nX-Key: v\r\n\r\nb\r\nPING\r\n"
                + "MSG parts 1 _INBOX.r 1\r\nc\r\n")
        #expect(try await connection.next() == .pong)
        let first = await messages.next()
        let second = await messages.next()
        let third = await messages.next()
        #expect(first?.payloadString == "a" && first?.headers == nil)
        #expect(second?.payloadString == "b" && second?.headers?["X-Key"] == "v")
        #expect(third?.payloadString == "c" && third?.replyTo == "_INBOX.r")
    }

    /// A partial frame is completed from the front of the next read (the rest of that read is parsed in place), a
    /// frame larger than that first look takes the whole read, and a large partial frame is kept as it is.
    @Test func partialFramesAreCompletedFromLaterReadsOfAnySize() async throws {
        let (server, client, connection, iterator) = try await subscribedToParts()
        defer {
            Task {
                await client.close(); await server.stop()
            }
        }
        var messages = iterator
        let ten = String(repeating: "t", count: 10_000)
        let forty = String(repeating: "f", count: 40_000)
        // Completed by the next read, which goes on with a whole frame and the start of another.
        var pieces: [String] = ["MSG parts 1 5\r\nla", "ter\r\nMSG parts 1 3\r\nabc\r\nMSG par", "ts 1 2\r\nxy\r\n"]
        // 10,000 bytes over four reads: more than the first look at a read can complete.
        let tenHead: String = "MSG parts 1 10000\r\n" + String(ten.prefix(3_000))
        let tenTail: String = String(ten.suffix(1_000)) + "\r\nMSG parts 1 2\r\nok\r\n"
        pieces += [tenHead, String(repeating: "t", count: 3_000), String(repeating: "t", count: 3_000), tenTail]
        // 40,000 bytes: a partial frame too large to be copied into a buffer of its own.
        let fortyHead: String = "MSG parts 1 40000\r\n" + String(forty.prefix(20_000))
        pieces += [fortyHead, String(forty.suffix(20_000)) + "\r\n"]
        for piece in pieces { try await connection.send(piece) }
        for expected in ["later", "abc", "xy", ten, "ok", forty] {
            let payload = await messages.next()?.payloadString
            guard payload == expected else {
                Issue.record(
                    "expected \(expected.prefix(20)) (\(expected.count) bytes), got \(payload?.prefix(20) ?? "nothing")"
                )
                return
            }
        }
    }

    @Test func aMalformedFrameIsAProtocolErrorThatClosesTheConnection() async throws {
        let (server, client, connection, _) = try await FakeServerSupport.connected {
            $0.reconnect = .disabled
        }
        defer { Task { await server.stop() } }
        var events = client.makeEventStream().makeAsyncIterator()
        try await connection.send("MSG parts 1 notanumber\r\n")
        let closed = await events.first { if case .closed = $0 { true } else { false } }
        guard case .closed(let reason) = closed else {
            Issue.record("the client did not close")
            return
        }
        #expect(reason?.code == .protocolError)
        await connection.waitUntilClosed()
    }

    @Test func aFullReconnectBufferRefusesThePublish() async throws {
        let (server, client, connection, _) = try await FakeServerSupport.connected {
            $0.reconnectBufferSize = 100
            $0.reconnect = NATSReconnectPolicy(maxAttemptsPerServer: 1000, wait: .seconds(5), jitter: .zero)
        }
        defer {
            Task {
                await client.close(); await server.stop()
            }
        }
        await connection.close()
        #expect(await eventually { !client.isConnected })
        try client.publish(String(repeating: "x", count: 60), to: "s")
        let error = #expect(throws: NATSError.self) { try client.publish(String(repeating: "y", count: 60), to: "s") }
        #expect(error?.code == .bufferFull)
    }

    @Test func aSlowConsumerDropsBeyondItsLimitAndIsReportedOnce() async throws {
        let (server, client, connection, _) = try await FakeServerSupport.connected()
        defer {
            Task {
                await client.close(); await server.stop()
            }
        }
        var events = client.makeEventStream().makeAsyncIterator()
        let subscription = try client.subscribe(to: "ticks", pendingLimit: 2)
        #expect(try await connection.next() == .subscribe(subject: "ticks", queue: nil, sid: 1))
        try await connection.send((1...6).map { "MSG ticks 1 1\r\n\($0)\r\n" }.joined())
        let reported = await events.first { if case .error = $0 { true } else { false } }
        guard case .error(let error) = reported else {
            Issue.record("no slow-consumer event")
            return
        }
        #expect(error.code == .slowConsumer)
        #expect(await eventually { subscription.droppedMessages == 4 })
        var messages = subscription.makeAsyncIterator()
        #expect(await messages.next()?.payloadString == "1")
        #expect(await messages.next()?.payloadString == "2")
        // The next message after the consumer caught up is delivered again.
        try await connection.send("MSG ticks 1 1\r\n7\r\n")
        #expect(await messages.next()?.payloadString == "7")
        #expect(subscription.droppedMessages == 4)
    }

    @Test func drainDeliversWhatTheServerSentBeforeThePongThenCloses() async throws {
        let (server, client, connection, _) = try await FakeServerSupport.connected()
        defer { Task { await server.stop() } }
        let subscription = try client.subscribe(to: "jobs")
        #expect(try await connection.next() == .subscribe(subject: "jobs", queue: nil, sid: 1))
        try client.publish("last words", to: "log")
        async let draining: Void = client.drain(timeout: .seconds(5))
        #expect(try await connection.next() == .publish(subject: "log", replyTo: nil, payload: "last words"))
        #expect(try await connection.next() == .unsubscribe(sid: 1, max: nil))
        #expect(try await connection.next() == .ping)
        try await connection.send("MSG jobs 1 9\r\nin-flight\r\n")
        try await connection.send("PONG\r\n")
        try await draining
        var received: [String] = []
        for await message in subscription { received.append(message.payloadString) }
        #expect(received == ["in-flight"])
        await connection.waitUntilClosed()
        #expect(!client.isConnected)
    }

    @Test func requestsShareOneInboxAndAreRoutedByToken() async throws {
        let (server, client, connection, _) = try await FakeServerSupport.connected()
        defer {
            Task {
                await client.close(); await server.stop()
            }
        }
        async let first = client.request("one", to: "svc")
        guard case .subscribe(let inbox, nil, let inboxSID) = try await connection.next(),
            case .publish("svc", let firstReply?, "one") = try await connection.next()
        else {
            Issue.record("expected the inbox subscription and the first request")
            return
        }
        #expect(inbox.hasPrefix("_INBOX.") && inbox.hasSuffix(".*"))
        #expect(firstReply.hasPrefix(inbox.dropLast()))
        async let second = client.request("two", to: "svc")
        guard case .publish("svc", let secondReply?, "two") = try await connection.next() else {
            Issue.record("expected the second request on the same inbox")
            return
        }
        #expect(secondReply != firstReply && secondReply.hasPrefix(inbox.dropLast()))
        // Answered in the opposite order; each reaches its own caller.
        try await connection.send("MSG \(secondReply) \(inboxSID) 3\r\nTWO\r\n")
        try await connection.send("MSG \(firstReply) \(inboxSID) 3\r\nONE\r\n")
        #expect(try await second.payloadString == "TWO")
        #expect(try await first.payloadString == "ONE")
    }

    /// On a loopback socket: the loop must be one of a MultiThreadedEventLoopGroup's (see LoopbackNATSServer).
    @Test func aRequestLoopOnTheTaskExecutorRunsOnTheConnectionsEventLoop() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        let server = try await LoopbackNATSServer.start()
        let client = try NATSClient(
            configuration: FakeServerSupport.configuration(url: server.url), eventLoopGroup: group)
        async let connecting: Void = client.connect()
        let connection = try await server.nextConnection()
        _ = try await connection.acceptHandshake()
        try await connecting
        defer {
            Task {
                await client.close(); await server.stop()
                try? await group.shutdownGracefully()
            }
        }
        let answering = Task {
            guard case .subscribe(_, nil, let sid) = try await connection.next() else { return }
            for _ in 0..<3 {
                guard case .publish(_, let reply?, let payload) = try await connection.next() else { return }
                try await connection.send("MSG \(reply) \(sid) \(payload.utf8.count)\r\n\(payload)\r\n")
            }
        }
        let loops = try await withTaskExecutorPreference(client.taskExecutor) {
            var loops: [ObjectIdentifier?] = []
            for index in 0..<3 {
                let answer = try await client.request("n\(index)", to: "svc")
                #expect(answer.payloadString == "n\(index)")
                loops.append(MultiThreadedEventLoopGroup.currentEventLoop.map { ObjectIdentifier($0) })
            }
            return loops
        }
        try await answering.value
        let first = try #require(loops.first ?? nil, "the loop ran on an event loop of the group")
        #expect(loops.allSatisfy { $0 == first }, "every reply resumed the loop on the same event loop")
        let all = Set(group.makeIterator().map { ObjectIdentifier($0) })
        #expect(all.contains(first))
    }

    @Test func aStatus503AnswerIsNoResponders() async throws {
        let (server, client, connection, _) = try await FakeServerSupport.connected()
        defer {
            Task {
                await client.close(); await server.stop()
            }
        }
        let answer = Task { try await client.request("ping", to: "nobody", timeout: .seconds(5)) }
        guard case .subscribe(_, nil, let sid) = try await connection.next(),
            case .publish("nobody", let reply?, "ping") = try await connection.next()
        else {
            Issue.record("expected the request")
            return
        }
        let block = "NATS/1.0 503\r\n\r\n"
        try await connection.send("HMSG \(reply) \(sid) \(block.utf8.count) \(block.utf8.count)\r\n\(block)\r\n")
        let error = await #expect(throws: NATSError.self) { _ = try await answer.value }
        #expect(error?.code == .noResponders)
    }

    @Test func aRequestWithoutAnswerTimesOut() async throws {
        let (server, client, connection, _) = try await FakeServerSupport.connected()
        defer {
            Task {
                await client.close(); await server.stop()
            }
        }
        let requesting = Task { try await client.request("hello", to: "void", timeout: .milliseconds(100)) }
        // Sent (the inbox subscription, then the request) before its time runs out.
        guard case .subscribe = try await connection.next(),
            case .publish("void", _?, "hello") = try await connection.next()
        else {
            Issue.record("expected the request")
            return
        }
        await server.advanceClock(by: .milliseconds(100))
        let error = await #expect(throws: NATSError.self) { _ = try await requesting.value }
        #expect(error?.code == .timeout)
    }

    @Test func headersAreFramedWithTheirLengths() async throws {
        let (server, client, connection, _) = try await FakeServerSupport.connected()
        defer {
            Task {
                await client.close(); await server.stop()
            }
        }
        let headers = NATSHeaders([("Trace-Id", "abc"), ("Trace-Id", "def"), ("Kind", "test")])
        try client.publish("body", to: "with.headers", replyTo: "r", headers: headers)
        #expect(
            try await connection.next()
                == .headerPublish(
                    subject: "with.headers", replyTo: "r",
                    headers: "NATS/1.0\r\nTrace-Id: abc\r\nTrace-Id: def\r\nKind: test\r\n\r\n", payload: "body"))
    }

    @Test func headersAreRefusedByAServerWithoutHeaderSupport() async throws {
        let server = FakeNATSServer(info: #"{"server_id":"OLD","proto":1,"headers":false}"#)
        let client = try FakeServerSupport.client(server)
        defer {
            Task {
                await client.close(); await server.stop()
            }
        }
        async let connecting: Void = client.connect()
        _ = try await server.nextConnection().acceptHandshake()
        try await connecting
        let error = #expect(throws: NATSError.self) {
            try client.publish("x", to: "s", headers: NATSHeaders([("A", "b")]))
        }
        #expect(error?.code == .invalidConfiguration)
    }
}
