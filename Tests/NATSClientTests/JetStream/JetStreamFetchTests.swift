// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import NIOConcurrencyHelpers
import NIOCore
import Testing
import VettIDTestSupport

@testable import NATSClient

/// Pull fetches on the fake server: reply subjects, statuses, heartbeats, reconnects and acks.
///
/// Every fetch runs its watchdog (its timeout, the missed heartbeat) on a ManualClock: no fetch ends because time
/// passed unless the test moves that clock, and the test learns that the fetch took in a message or a status from
/// where the watchdog is set (with heartbeats on, each one from the current pull sets it again). What a test waits
/// for follows from a step it took, so a loaded machine only makes it slower; the limit of ``finished(_:)`` and
/// ``watchdog(of:isSetFor:)`` (real time) only keeps a broken fetch from hanging the run.
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

    /// What `fetching` returned or threw.
    private func finished(_ fetching: Task<[JetStreamMessage], any Error>) async throws -> [JetStreamMessage] {
        try await withinRealTime("the end of the fetch") { try await fetching.value }
    }

    /// Waits until the only alarm on `clock` is the fetch's watchdog at `deadline` (an offset from the clock's
    /// start): the fetch took in everything that moves it there.
    private func watchdog(of clock: ManualClock, isSetFor deadline: Duration) async throws {
        try await withinRealTime("the fetch's watchdog set for \(deadline)") {
            await clock.waitForDeadlines([deadline])
        }
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
                idleHeartbeat: .milliseconds(500), clock: ManualClock())
        }
        let (sid, inbox, body) = try await pull(connection)
        #expect(inbox.hasPrefix("_INBOX."))
        #expect(body == #"{"batch":5,"expires":2000000000,"idle_heartbeat":500000000,"max_bytes":1024}"#)
        try await deliver(connection, sid: sid, sequence: 1, payload: "one")
        try await status(connection, sid: sid, inbox: inbox, "100 Idle Heartbeat")
        try await deliver(connection, sid: sid, sequence: 2, payload: "two")
        try await status(connection, sid: sid, inbox: inbox, "408 Request Timeout")
        let messages = try await finished(fetching)
        #expect(messages.map { String(buffer: $0.payload) } == ["one", "two"])
        #expect(messages.map(\.metadata.streamSequence) == [1, 2])
        #expect(messages.first?.subject == "mb.g1.d1")
        // The reply subject goes once the fetch is over, and so does its reconnect listener. The server ended the
        // pull, so the UNSUB waits for the next write instead of being flushed alone.
        #expect(client.core.events.listenerCount == 0)
        try client.publish("next", to: "after.the.fetch")
        #expect(try await connection.next() == .unsubscribe(sid: sid, max: nil))
        #expect(try await connection.next() == .publish(subject: "after.the.fetch", replyTo: nil, payload: "next"))
    }

    @Test func aFullBatchEndsTheFetchWithoutWaiting() async throws {
        let (server, client, connection, _) = try await FakeServerSupport.connected()
        defer {
            Task {
                await client.close(); await server.stop()
            }
        }
        let fetching = Task {
            try await client.jetStream().fetch(batch: 2, from: "d1", on: "MAILBOX", noWait: true, clock: ManualClock())
        }
        let (sid, _, body) = try await pull(connection)
        #expect(body == #"{"batch":2,"no_wait":true}"#)
        try await deliver(connection, sid: sid, sequence: 7, payload: "a")
        try await deliver(connection, sid: sid, sequence: 8, payload: "b")
        #expect(try await finished(fetching).map(\.metadata.streamSequence) == [7, 8])
    }

    @Test func aLateStatusOfAnEarlierPullDoesNotEndTheNextOne() async throws {
        let (server, client, connection, _) = try await FakeServerSupport.connected()
        defer {
            Task {
                await client.close(); await server.stop()
            }
        }
        let jetStream = client.jetStream()
        let clock = ManualClock()
        let first = Task {
            try await jetStream.fetch(batch: 1, from: "d1", on: "MAILBOX", noWait: true, clock: clock)
        }
        let (firstSid, firstInbox, _) = try await pull(connection)
        try await status(connection, sid: firstSid, inbox: firstInbox, "404 No Messages")
        #expect(try await finished(first).isEmpty)

        let second = Task {
            try await jetStream.fetch(batch: 1, from: "d1", on: "MAILBOX", expires: .seconds(2), clock: clock)
        }
        let (sid, inbox, _) = try await pull(connection)
        #expect(inbox != firstInbox)
        // The first pull's 408 comes late, on its own reply subject: the second fetch goes on.
        try await status(connection, sid: firstSid, inbox: firstInbox, "408 Request Timeout")
        try await deliver(connection, sid: sid, sequence: 3, payload: "late-proof")
        #expect(try await finished(second).map { String(buffer: $0.payload) } == ["late-proof"])
    }

    @Test func silenceForTwoHeartbeatsIsAMissedHeartbeat() async throws {
        let (server, client, connection, _) = try await FakeServerSupport.connected()
        defer {
            Task {
                await client.close(); await server.stop()
            }
        }
        let clock = ManualClock()
        let fetching = Task {
            try await client.jetStream().fetch(
                batch: 1, from: "d1", on: "MAILBOX", expires: .seconds(30), idleHeartbeat: .seconds(1), clock: clock)
        }
        let (sid, inbox, _) = try await pull(connection)
        // Silence counts from the pull until something is heard: two heartbeats.
        try await watchdog(of: clock, isSetFor: .seconds(2))
        clock.advance(by: .milliseconds(1500))
        try await status(connection, sid: sid, inbox: inbox, "100 Idle Heartbeat")
        // Then from the heartbeat: 2 s pass without ending the fetch, 3.5 s do.
        try await watchdog(of: clock, isSetFor: .milliseconds(3500))
        clock.advance(by: .seconds(2))
        let error = await #expect(throws: JetStreamError.self) { _ = try await finished(fetching) }
        #expect(error?.code == .missedHeartbeat)
        #expect(try await connection.next() == .unsubscribe(sid: sid, max: nil))
    }

    @Test func heartbeatsAndMessagesKeepAFetchAlive() async throws {
        let (server, client, connection, _) = try await FakeServerSupport.connected()
        defer {
            Task {
                await client.close(); await server.stop()
            }
        }
        let clock = ManualClock()
        let fetching = Task {
            try await client.jetStream().fetch(
                batch: 2, from: "d1", on: "MAILBOX", expires: .seconds(30), idleHeartbeat: .seconds(1), clock: clock)
        }
        let (sid, inbox, _) = try await pull(connection)
        try await watchdog(of: clock, isSetFor: .seconds(2))
        // 12 s in all, six times two heartbeats, never two heartbeats without a word from the server.
        for step in 1...6 {
            clock.advance(by: .milliseconds(1500))
            try await status(connection, sid: sid, inbox: inbox, "100 Idle Heartbeat")
            try await watchdog(of: clock, isSetFor: .milliseconds(1500 * step + 2000))
        }
        clock.advance(by: .milliseconds(1500))
        try await deliver(connection, sid: sid, sequence: 1, payload: "after 10.5 s")
        // A message is heard as well.
        try await watchdog(of: clock, isSetFor: .milliseconds(12_500))
        clock.advance(by: .milliseconds(1500))
        try await deliver(connection, sid: sid, sequence: 2, payload: "after 12 s")
        #expect(try await finished(fetching).map { String(buffer: $0.payload) } == ["after 10.5 s", "after 12 s"])
    }

    @Test func aReconnectSendsANewPullForWhatIsMissing() async throws {
        let (server, client, connection, _) = try await FakeServerSupport.connected()
        defer {
            Task {
                await client.close(); await server.stop()
            }
        }
        // Heartbeats only so that the watchdog tells when the fetch took a message in.
        let clock = ManualClock()
        let fetching = Task {
            try await client.jetStream().fetch(
                batch: 3, from: "d1", on: "MAILBOX", expires: .seconds(10), idleHeartbeat: .seconds(2), clock: clock)
        }
        let (oldSid, oldInbox, _) = try await pull(connection)
        try await watchdog(of: clock, isSetFor: .seconds(4))
        clock.advance(by: .seconds(1))
        try await deliver(connection, sid: oldSid, sequence: 1, payload: "before")
        // Taken before the connection drops: hearing it set the watchdog two heartbeats on.
        try await watchdog(of: clock, isSetFor: .seconds(5))
        await connection.close()
        await server.advanceClock(by: .milliseconds(20))  // the reconnect wait
        let second = try await server.nextConnection()
        _ = try await second.acceptHandshake()
        let (sid, inbox, body) = try await pull(second)
        #expect(inbox != oldInbox)
        // What is missing, for what is left of the expiry (1 s of the fetch's clock went).
        #expect(body == #"{"batch":2,"expires":9000000000,"idle_heartbeat":2000000000}"#)
        try await deliver(second, sid: sid, sequence: 2, payload: "after-1")
        try await deliver(second, sid: sid, sequence: 3, payload: "after-2")
        #expect(try await finished(fetching).map { String(buffer: $0.payload) } == ["before", "after-1", "after-2"])
    }

    @Test func aDeletedConsumerFailsAnEmptyFetchButKeepsWhatArrived() async throws {
        let (server, client, connection, _) = try await FakeServerSupport.connected()
        defer {
            Task {
                await client.close(); await server.stop()
            }
        }
        let jetStream = client.jetStream()
        let clock = ManualClock()
        let empty = Task { try await jetStream.fetch(from: "d1", on: "MAILBOX", expires: .seconds(2), clock: clock) }
        let (sid, inbox, _) = try await pull(connection)
        try await status(connection, sid: sid, inbox: inbox, "409 Consumer Deleted")
        let error = await #expect(throws: JetStreamError.self) { _ = try await finished(empty) }
        #expect(error?.code == .consumerDeleted)
        #expect(error?.apiError?.code == 409)

        let some = Task {
            try await jetStream.fetch(batch: 5, from: "d1", on: "MAILBOX", expires: .seconds(2), clock: clock)
        }
        let (secondSid, secondInbox, _) = try await pull(connection)
        try await deliver(connection, sid: secondSid, sequence: 1, payload: "kept")
        try await status(connection, sid: secondSid, inbox: secondInbox, "409 Consumer Deleted")
        #expect(try await finished(some).map { String(buffer: $0.payload) } == ["kept"])
    }

    @Test func aBadRequestIsARefusedPull() async throws {
        let (server, client, connection, _) = try await FakeServerSupport.connected()
        defer {
            Task {
                await client.close(); await server.stop()
            }
        }
        let fetching = Task {
            try await client.jetStream().fetch(from: "d1", on: "MAILBOX", expires: .seconds(2), clock: ManualClock())
        }
        let (sid, inbox, _) = try await pull(connection)
        try await status(connection, sid: sid, inbox: inbox, "400 Bad Request - heartbeat value too large")
        let error = await #expect(throws: JetStreamError.self) { _ = try await finished(fetching) }
        #expect(error?.code == .pullRefused)
        #expect(error?.apiError?.description == "Bad Request - heartbeat value too large")
    }

    @Test func anUnansweredNoWaitFetchTimesOutAfterTheContextsTimeout() async throws {
        let (server, client, connection, _) = try await FakeServerSupport.connected()
        defer {
            Task {
                await client.close(); await server.stop()
            }
        }
        let clock = ManualClock()
        let fetching = Task {
            try await client.jetStream(timeout: .milliseconds(200)).fetch(
                from: "d1", on: "MAILBOX", noWait: true, clock: clock)
        }
        _ = try await pull(connection)
        try await watchdog(of: clock, isSetFor: .milliseconds(200))
        clock.advance(by: .milliseconds(200))
        let error = await #expect(throws: JetStreamError.self) { _ = try await finished(fetching) }
        #expect(error?.code == .timeout)
    }

    @Test func anUnendedPullTimesOutASecondAfterItsExpiry() async throws {
        let (server, client, connection, _) = try await FakeServerSupport.connected()
        defer {
            Task {
                await client.close(); await server.stop()
            }
        }
        let clock = ManualClock()
        let fetching = Task {
            try await client.jetStream().fetch(from: "d1", on: "MAILBOX", expires: .seconds(30), clock: clock)
        }
        let (sid, inbox, _) = try await pull(connection)
        // Without heartbeats, what the server sends does not move the watchdog.
        try await status(connection, sid: sid, inbox: inbox, "100 Idle Heartbeat")
        try await watchdog(of: clock, isSetFor: .seconds(31))
        clock.advance(by: .seconds(31))
        let error = await #expect(throws: JetStreamError.self) { _ = try await finished(fetching) }
        #expect(error?.code == .timeout)
    }

    @Test func closingTheClientEndsAWaitingFetch() async throws {
        let (server, client, connection, _) = try await FakeServerSupport.connected()
        defer { Task { await server.stop() } }
        let fetching = Task {
            try await client.jetStream().fetch(from: "d1", on: "MAILBOX", expires: .seconds(30), clock: ManualClock())
        }
        _ = try await pull(connection)
        await client.close()
        let error = await #expect(throws: JetStreamError.self) { _ = try await finished(fetching) }
        #expect(error?.code == .requestFailed)
    }

    @Test func cancellingAWaitingFetchEndsIt() async throws {
        let (server, client, connection, _) = try await FakeServerSupport.connected()
        defer {
            Task {
                await client.close(); await server.stop()
            }
        }
        let fetching = Task {
            try await client.jetStream().fetch(from: "d1", on: "MAILBOX", expires: .seconds(30), clock: ManualClock())
        }
        let (sid, _, _) = try await pull(connection)
        fetching.cancel()
        let error = await #expect(throws: JetStreamError.self) { _ = try await finished(fetching) }
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
        let fetching = Task {
            try await client.jetStream().fetch(batch: 1, from: "d1", on: "MAILBOX", noWait: true, clock: ManualClock())
        }
        let (sid, _, _) = try await pull(connection)
        try await deliver(connection, sid: sid, sequence: 4, payload: "x")
        let message = try #require(try await finished(fetching).first)
        let ackSubject = "$JS.ACK.MAILBOX.d1.1.4.4.1795890431033768813.0"
        #expect(message.message.replyTo == ackSubject)

        // The full batch ended the pull: its UNSUB goes out with the first ack.
        try message.ack()
        #expect(try await connection.next() == .unsubscribe(sid: sid, max: nil))
        #expect(try await connection.next() == .publish(subject: ackSubject, replyTo: nil, payload: "+ACK"))
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

/// What `body` returns, or a ``FakeTimeout`` when it has returned nothing after `limit` of real time. For waits that
/// end because of a step the test took, never because time passed: the limit only keeps a broken client from
/// hanging the run (`body` need not heed cancellation, a ManualClock's wait does not).
private func withinRealTime<Value: Sendable>(
    _ what: String,
    limit: Duration = .seconds(10),
    _ body: @escaping @Sendable () async throws -> Value
) async throws -> Value {
    let waiter = NIOLockedValueBox<CheckedContinuation<Value, any Error>?>(nil)
    @Sendable func finish(_ result: Result<Value, any Error>) {
        let continuation = waiter.withLockedValue { waiter in
            defer { waiter = nil }
            return waiter
        }
        continuation?.resume(with: result)
    }
    return try await withCheckedThrowingContinuation { continuation in
        waiter.withLockedValue { $0 = continuation }
        let timer = Task {
            do { try await Task.sleep(for: limit) } catch { return }
            finish(.failure(FakeTimeout(description: "waited \(limit) for \(what)")))
        }
        Task {
            do { finish(.success(try await body())) } catch { finish(.failure(error)) }
            timer.cancel()
        }
    }
}
