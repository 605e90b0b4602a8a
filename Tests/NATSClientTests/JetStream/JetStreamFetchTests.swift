// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import NIOCore
import Testing

@testable import NATSClient

/// Pull fetches on the fake server: reply subjects, statuses, heartbeats, reconnects and acks.
@Suite struct JetStreamFetchTests {
    private static let next = "$JS.API.CONSUMER.MSG.NEXT.MAILBOX.d1"

    /// The pull a fetch sends: its reply subject's subscription id, the reply subject and the body.
    private func pull(_ connection: FakeNATSConnection) async throws -> (sid: UInt64, inbox: String, body: String) {
        var sids: [String: UInt64] = [:]
        while true {
            switch try await connection.next() {
            case .subscribe(let subject, nil, let sid):
                sids[subject] = sid
            case .publish(Self.next, let inbox?, let body):
                let sid = try #require(sids[inbox], "the pull's reply subject was not subscribed first")
                return (sid, inbox, body)
            case .connect, .ping, .pong, .unsubscribe:
                continue
            case let other:
                throw FakeProtocolViolation(description: "unexpected \(other)")
            }
        }
    }

    private func deliver(_ connection: FakeNATSConnection, sid: UInt64, sequence: Int, payload: String) async throws {
        let reply = "$JS.ACK.MAILBOX.d1.1.\(sequence).\(sequence).1795890431033768813.0"
        try await connection.send("MSG mb.g1.d1 \(sid) \(reply) \(payload.utf8.count)\r\n\(payload)\r\n")
    }

    private func status(_ connection: FakeNATSConnection, sid: UInt64, inbox: String, _ line: String) async throws {
        let block = "NATS/1.0 \(line)\r\n\r\n"
        try await connection.send("HMSG \(inbox) \(sid) \(block.utf8.count) \(block.utf8.count)\r\n\(block)\r\n")
    }

    @Test func aFetchPullsOnItsOwnReplySubjectAndEndsOnRequestTimeout() async throws {
        let (server, client, connection, _) = try await FakeServerSupport.connected()
        defer {
            Task {
                await client.close(); await server.stop()
            }
        }
        let fetching = Task {
            try await client.jetStream().fetch(
                batch: 5, from: "d1", on: "MAILBOX", expires: .seconds(2), maxBytes: 1024,
                idleHeartbeat: .milliseconds(500))
        }
        let (sid, inbox, body) = try await pull(connection)
        #expect(inbox.hasPrefix("_INBOX."))
        #expect(body == #"{"batch":5,"expires":2000000000,"idle_heartbeat":500000000,"max_bytes":1024}"#)
        try await deliver(connection, sid: sid, sequence: 1, payload: "one")
        try await status(connection, sid: sid, inbox: inbox, "100 Idle Heartbeat")
        try await deliver(connection, sid: sid, sequence: 2, payload: "two")
        try await status(connection, sid: sid, inbox: inbox, "408 Request Timeout")
        let messages = try await fetching.value
        #expect(messages.map { String(buffer: $0.payload) } == ["one", "two"])
        #expect(messages.map(\.metadata.streamSequence) == [1, 2])
        #expect(messages.first?.subject == "mb.g1.d1")
        // The reply subject goes once the fetch is over.
        #expect(try await connection.next() == .unsubscribe(sid: sid, max: nil))
    }

    @Test func aFullBatchEndsTheFetchWithoutWaiting() async throws {
        let (server, client, connection, _) = try await FakeServerSupport.connected()
        defer {
            Task {
                await client.close(); await server.stop()
            }
        }
        let fetching = Task { try await client.jetStream().fetch(batch: 2, from: "d1", on: "MAILBOX", noWait: true) }
        let (sid, _, body) = try await pull(connection)
        #expect(body == #"{"batch":2,"no_wait":true}"#)
        try await deliver(connection, sid: sid, sequence: 7, payload: "a")
        try await deliver(connection, sid: sid, sequence: 8, payload: "b")
        #expect(try await fetching.value.map(\.metadata.streamSequence) == [7, 8])
    }

    @Test func aLateStatusOfAnEarlierPullDoesNotEndTheNextOne() async throws {
        let (server, client, connection, _) = try await FakeServerSupport.connected()
        defer {
            Task {
                await client.close(); await server.stop()
            }
        }
        let jetStream = client.jetStream()
        let first = Task { try await jetStream.fetch(batch: 1, from: "d1", on: "MAILBOX", noWait: true) }
        let (firstSid, firstInbox, _) = try await pull(connection)
        try await status(connection, sid: firstSid, inbox: firstInbox, "404 No Messages")
        #expect(try await first.value.isEmpty)

        let second = Task { try await jetStream.fetch(batch: 1, from: "d1", on: "MAILBOX", expires: .seconds(2)) }
        let (sid, inbox, _) = try await pull(connection)
        #expect(inbox != firstInbox)
        // The first pull's 408 comes late, on its own reply subject: the second fetch goes on.
        try await status(connection, sid: firstSid, inbox: firstInbox, "408 Request Timeout")
        try await deliver(connection, sid: sid, sequence: 3, payload: "late-proof")
        #expect(try await second.value.map { String(buffer: $0.payload) } == ["late-proof"])
    }

    @Test func silenceForTwoHeartbeatsIsAMissedHeartbeat() async throws {
        let (server, client, connection, _) = try await FakeServerSupport.connected()
        defer {
            Task {
                await client.close(); await server.stop()
            }
        }
        let started = ContinuousClock.now
        let fetching = Task {
            try await client.jetStream().fetch(
                batch: 1, from: "d1", on: "MAILBOX", expires: .seconds(5), idleHeartbeat: .milliseconds(50))
        }
        _ = try await pull(connection)
        let error = await #expect(throws: JetStreamError.self) { _ = try await fetching.value }
        #expect(error?.code == .missedHeartbeat)
        #expect(ContinuousClock.now - started < .seconds(2))
    }

    @Test func heartbeatsKeepAFetchAlive() async throws {
        let (server, client, connection, _) = try await FakeServerSupport.connected()
        defer {
            Task {
                await client.close(); await server.stop()
            }
        }
        let fetching = Task {
            try await client.jetStream().fetch(
                batch: 1, from: "d1", on: "MAILBOX", expires: .seconds(5), idleHeartbeat: .milliseconds(200))
        }
        let (sid, inbox, _) = try await pull(connection)
        // 600 ms in all, three times the heartbeat; silence never lasts two heartbeats (a loaded machine has slack).
        for _ in 0..<12 {
            try await Task.sleep(for: .milliseconds(50))
            try await status(connection, sid: sid, inbox: inbox, "100 Idle Heartbeat")
        }
        try await deliver(connection, sid: sid, sequence: 1, payload: "after 600 ms")
        #expect(try await fetching.value.count == 1)
    }

    @Test func aReconnectSendsANewPullForWhatIsMissing() async throws {
        let (server, client, connection, _) = try await FakeServerSupport.connected()
        defer {
            Task {
                await client.close(); await server.stop()
            }
        }
        let fetching = Task {
            try await client.jetStream().fetch(batch: 3, from: "d1", on: "MAILBOX", expires: .seconds(10))
        }
        let (oldSid, oldInbox, _) = try await pull(connection)
        try await deliver(connection, sid: oldSid, sequence: 1, payload: "before")
        try await Task.sleep(for: .milliseconds(50))  // Taken before the connection drops.
        await connection.close()
        await server.advanceClock(by: .milliseconds(20))  // the reconnect wait
        let second = try await server.nextConnection()
        _ = try await second.acceptHandshake()
        let (sid, inbox, body) = try await pull(second)
        #expect(inbox != oldInbox)
        #expect(body.hasPrefix(#"{"batch":2,"expires":"#))
        try await deliver(second, sid: sid, sequence: 2, payload: "after-1")
        try await deliver(second, sid: sid, sequence: 3, payload: "after-2")
        #expect(try await fetching.value.map { String(buffer: $0.payload) } == ["before", "after-1", "after-2"])
    }

    @Test func aDeletedConsumerFailsAnEmptyFetchButKeepsWhatArrived() async throws {
        let (server, client, connection, _) = try await FakeServerSupport.connected()
        defer {
            Task {
                await client.close(); await server.stop()
            }
        }
        let jetStream = client.jetStream()
        let empty = Task { try await jetStream.fetch(from: "d1", on: "MAILBOX", expires: .seconds(2)) }
        let (sid, inbox, _) = try await pull(connection)
        try await status(connection, sid: sid, inbox: inbox, "409 Consumer Deleted")
        let error = await #expect(throws: JetStreamError.self) { _ = try await empty.value }
        #expect(error?.code == .consumerDeleted)
        #expect(error?.apiError?.code == 409)

        let some = Task { try await jetStream.fetch(batch: 5, from: "d1", on: "MAILBOX", expires: .seconds(2)) }
        let (secondSid, secondInbox, _) = try await pull(connection)
        try await deliver(connection, sid: secondSid, sequence: 1, payload: "kept")
        try await status(connection, sid: secondSid, inbox: secondInbox, "409 Consumer Deleted")
        #expect(try await some.value.map { String(buffer: $0.payload) } == ["kept"])
    }

    @Test func aBadRequestIsARefusedPull() async throws {
        let (server, client, connection, _) = try await FakeServerSupport.connected()
        defer {
            Task {
                await client.close(); await server.stop()
            }
        }
        let fetching = Task { try await client.jetStream().fetch(from: "d1", on: "MAILBOX", expires: .seconds(2)) }
        let (sid, inbox, _) = try await pull(connection)
        try await status(connection, sid: sid, inbox: inbox, "400 Bad Request - heartbeat value too large")
        let error = await #expect(throws: JetStreamError.self) { _ = try await fetching.value }
        #expect(error?.code == .pullRefused)
        #expect(error?.apiError?.description == "Bad Request - heartbeat value too large")
    }

    @Test func anUnansweredNoWaitFetchTimesOut() async throws {
        let (server, client, connection, _) = try await FakeServerSupport.connected()
        defer {
            Task {
                await client.close(); await server.stop()
            }
        }
        let fetching = Task {
            try await client.jetStream(timeout: .milliseconds(200)).fetch(from: "d1", on: "MAILBOX", noWait: true)
        }
        _ = try await pull(connection)
        let error = await #expect(throws: JetStreamError.self) { _ = try await fetching.value }
        #expect(error?.code == .timeout)
    }

    @Test func closingTheClientEndsAWaitingFetch() async throws {
        let (server, client, connection, _) = try await FakeServerSupport.connected()
        defer { Task { await server.stop() } }
        let fetching = Task { try await client.jetStream().fetch(from: "d1", on: "MAILBOX", expires: .seconds(30)) }
        _ = try await pull(connection)
        await client.close()
        let error = await #expect(throws: JetStreamError.self) { _ = try await fetching.value }
        #expect(error?.code == .requestFailed)
    }

    @Test func cancellingAWaitingFetchEndsIt() async throws {
        let (server, client, connection, _) = try await FakeServerSupport.connected()
        defer {
            Task {
                await client.close(); await server.stop()
            }
        }
        let fetching = Task { try await client.jetStream().fetch(from: "d1", on: "MAILBOX", expires: .seconds(30)) }
        let (sid, _, _) = try await pull(connection)
        fetching.cancel()
        let error = await #expect(throws: JetStreamError.self) { _ = try await fetching.value }
        #expect(error?.code == .cancelled)
        #expect(try await connection.next() == .unsubscribe(sid: sid, max: nil))
    }

    @Test func acksGoToTheAckSubject() async throws {
        let (server, client, connection, _) = try await FakeServerSupport.connected()
        defer {
            Task {
                await client.close(); await server.stop()
            }
        }
        let fetching = Task { try await client.jetStream().fetch(batch: 1, from: "d1", on: "MAILBOX", noWait: true) }
        let (sid, _, _) = try await pull(connection)
        try await deliver(connection, sid: sid, sequence: 4, payload: "x")
        let message = try #require(try await fetching.value.first)
        let ackSubject = "$JS.ACK.MAILBOX.d1.1.4.4.1795890431033768813.0"
        #expect(message.message.replyTo == ackSubject)
        #expect(try await connection.next() == .unsubscribe(sid: sid, max: nil))

        try message.ack(.nak(delay: .milliseconds(1500)))
        #expect(
            try await connection.next()
                == .publish(subject: ackSubject, replyTo: nil, payload: #"-NAK {"delay":1500000000}"#))
        try message.ack(.inProgress)
        #expect(try await connection.next() == .publish(subject: ackSubject, replyTo: nil, payload: "+WPI"))

        let acknowledged = Task { try await message.ackAcknowledged(.terminate) }
        guard case .subscribe(_, nil, let inboxSid) = try await connection.next(),
            case .publish(ackSubject, let reply?, "+TERM") = try await connection.next()
        else {
            Issue.record("expected the acknowledged +TERM")
            return
        }
        try await connection.send("MSG \(reply) \(inboxSid) 0\r\n\r\n")
        try await acknowledged.value
    }
}
