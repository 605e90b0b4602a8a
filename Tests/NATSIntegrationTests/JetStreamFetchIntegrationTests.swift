// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import NATSClient
import NIOCore
import Testing
import VettIDTestSupport

/// Pull fetches and acks against a real nats-server with JetStream (the statuses are nats-server 2.9.10's).
///
/// Nothing here depends on how fast the machine is: what the server does after a while (a NAK's delay, an ack wait,
/// an expiry) is checked against a lower bound measured from before the step that starts it, never against an
/// order of two such timers; an upper bound (a fetch's expiry, its context's timeout, an ack wait a step must beat)
/// is 10 s or more, far beyond what a loaded machine takes for one local round trip.
@Suite(.enabled(if: NATSServerProcess.isAvailable, "nats-server is not installed: JetStream integration tests skipped"))
struct JetStreamFetchIntegrationTests {
    /// A server with JetStream, a connected client, and a stream `MAILBOX` on `mb.>` with a consumer `d1` on
    /// `mb.g1.d1` (explicit acks, `ackWait`). The context waits 15 s for an answer (also for a `noWait` fetch).
    private func mailbox(ackWait: Duration = .seconds(30)) async throws -> (
        NATSServerProcess, NATSClient, JetStreamContext
    ) {
        let server = try await NATSServerProcess(jetStream: true)
        let client = try NATSClient(configuration: .init(servers: [server.url], name: "fetch", reconnect: .disabled))
        try await client.connect()
        let jetStream = client.jetStream(timeout: .seconds(15))
        try await jetStream.createStream(.init(name: "MAILBOX", subjects: ["mb.>"], storage: .memory))
        try await jetStream.createConsumer(
            .init(durableName: "d1", filterSubject: "mb.g1.d1", ackWait: ackWait, maxDeliver: 5), on: "MAILBOX")
        return (server, client, jetStream)
    }

    private func texts(_ messages: [JetStreamMessage]) -> [String] {
        messages.map { String(buffer: $0.payload) }
    }

    @Test func messagesArriveInOrderAndAnAckedOneIsNotDeliveredAgain() async throws {
        let (server, client, jetStream) = try await mailbox()
        defer { server.cleanUp() }
        defer { Task { await client.close() } }
        #expect(try await jetStream.fetch(batch: 5, from: "d1", on: "MAILBOX", noWait: true).isEmpty)
        for index in 1...3 { try await jetStream.publish("m\(index)", to: "mb.g1.d1", messageID: "id-\(index)") }
        try await jetStream.publish("other device", to: "mb.g1.d2")

        let first = try await jetStream.fetch(batch: 2, from: "d1", on: "MAILBOX", expires: .seconds(30))
        #expect(texts(first) == ["m1", "m2"])
        #expect(first.map(\.metadata.streamSequence) == [1, 2])
        #expect(first.map(\.metadata.delivered) == [1, 1])
        #expect(first.first?.metadata.stream == "MAILBOX")
        #expect(first.first?.metadata.consumer == "d1")
        #expect(first.first?.metadata.pending == 2)
        try await first[0].ackAcknowledged()
        // Acknowledged: the server has the NAK before the next pull (a plain ack races with it).
        try await first[1].ackAcknowledged(.nak())
        // Fewer than the batch wait: no_wait returns them (the server ends with 408). The NAK'd m2 comes first: the
        // server serves its redeliveries before new messages (its rule, not a matter of time: the ack wait is 30 s).
        let second = try await jetStream.fetch(batch: 5, from: "d1", on: "MAILBOX", noWait: true)
        #expect(texts(second) == ["m2", "m3"])
        #expect(second.map(\.metadata.delivered) == [2, 1])
        for message in second { try await message.ackAcknowledged() }
        #expect(try await jetStream.fetch(batch: 5, from: "d1", on: "MAILBOX", noWait: true).isEmpty)
        let info = try await jetStream.consumerInfo("d1", on: "MAILBOX")
        #expect(info.ackPending == 0)
        #expect(info.pending == 0)
        #expect(info.ackFloor.consumerSequence == info.delivered.consumerSequence)
    }

    @Test func nakWithDelayTermAndInProgress() async throws {
        // Long enough that every step between a delivery and its ack beats it, however loaded the machine.
        let ackWait = Duration.seconds(10)
        let nakDelay = Duration.seconds(1)
        let (server, client, jetStream) = try await mailbox(ackWait: ackWait)
        defer { server.cleanUp() }
        defer { Task { await client.close() } }
        for index in 1...3 { try await jetStream.publish("m\(index)", to: "mb.g1.d1") }
        let delivered = try await jetStream.fetch(batch: 3, from: "d1", on: "MAILBOX", noWait: true)
        #expect(texts(delivered) == ["m1", "m2", "m3"])
        // Each clock starts before the ack that starts the server's: m3's ack wait again, m1's delay.
        let progressSent = ContinuousClock.now
        try await delivered[2].ackAcknowledged(.inProgress)
        let nakSent = ContinuousClock.now
        try await delivered[0].ackAcknowledged(.nak(delay: nakDelay))
        try await delivered[1].ackAcknowledged(.terminate)

        // m1 comes back once its delay passed, m3 once its ack wait passed again, m2 never. Which of m1 and m3
        // comes first depends on how long the steps above took, so each is checked against its own lower bound.
        let comesBack = ["m1": (since: nakSent, after: nakDelay), "m3": (since: progressSent, after: ackWait)]
        var redelivered: [String] = []
        for _ in 0..<comesBack.count {
            let again = try await jetStream.fetch(batch: 1, from: "d1", on: "MAILBOX", expires: .seconds(30))
            let arrived = ContinuousClock.now
            let message = try #require(again.first, "a message comes back within 30 s")
            let text = String(buffer: message.payload)
            let expected = try #require(comesBack[text], "\(text) is not delivered again")
            #expect(expected.since.duration(to: arrived) >= expected.after, "\(text) came back too early")
            #expect(message.metadata.delivered == 2)
            try await message.ackAcknowledged()
            redelivered.append(text)
        }
        #expect(redelivered.sorted() == ["m1", "m3"])
        // Nothing is left: m2 was terminated (not waiting for an ack), m1 and m3 are acknowledged.
        #expect(try await jetStream.consumerInfo("d1", on: "MAILBOX").ackPending == 0)
        #expect(try await jetStream.fetch(batch: 3, from: "d1", on: "MAILBOX", noWait: true).isEmpty)
    }

    @Test func anExpiredPullEndsTheFetchAndItsHeartbeatsKeepItAlive() async throws {
        let (server, client, jetStream) = try await mailbox()
        defer { server.cleanUp() }
        defer { Task { await client.close() } }
        // Expired with heartbeats on the way: the 408 ends it. Without them heard, the fetch would end with
        // missedHeartbeat at 10 s, before the expiry; with them, only ten seconds without one would.
        let started = ContinuousClock.now
        let idle = try await jetStream.fetch(
            batch: 1, from: "d1", on: "MAILBOX", expires: .seconds(11), idleHeartbeat: .seconds(5))
        #expect(idle.isEmpty)
        #expect(started.duration(to: .now) >= .seconds(10))
    }

    @Test func aMessageOverMaxBytesEndsThePullWithoutIt() async throws {
        let (server, client, jetStream) = try await mailbox()
        defer { server.cleanUp() }
        defer { Task { await client.close() } }
        // A message larger than max_bytes: 409 Message Size Exceeds MaxBytes ends the pull without it, long
        // before the pull would expire.
        try await jetStream.publish(String(repeating: "x", count: 200), to: "mb.g1.d1")
        let started = ContinuousClock.now
        #expect(
            try await jetStream.fetch(batch: 1, from: "d1", on: "MAILBOX", expires: .seconds(60), maxBytes: 50).isEmpty)
        #expect(started.duration(to: .now) < .seconds(30))
        #expect(try await jetStream.fetch(batch: 1, from: "d1", on: "MAILBOX", noWait: true).count == 1)
    }

    @Test func aHeartbeatTooCloseToTheExpiryIsRefused() async throws {
        let (server, client, jetStream) = try await mailbox()
        defer { server.cleanUp() }
        defer { Task { await client.close() } }
        // 400 Bad Request, at once (the fetch would give up only after 21 s).
        let refused = await #expect(throws: JetStreamError.self) {
            _ = try await jetStream.fetch(
                from: "d1", on: "MAILBOX", expires: .seconds(20), idleHeartbeat: .seconds(18))
        }
        #expect(refused?.code == .pullRefused)
        #expect(refused?.apiError?.code == 400)
    }

    @Test func deletingTheConsumerEndsAWaitingPull() async throws {
        let (server, client, jetStream) = try await mailbox()
        defer { server.cleanUp() }
        defer { Task { await client.close() } }
        // The consumer goes while a pull waits: 409 Consumer Deleted. It goes once the server has the pull.
        let waiting = Task { try await jetStream.fetch(from: "d1", on: "MAILBOX", expires: .seconds(30)) }
        #expect(await eventually { (try? await jetStream.consumerInfo("d1", on: "MAILBOX").waiting) == 1 })
        try await jetStream.deleteConsumer("d1", on: "MAILBOX")
        let deleted = await #expect(throws: JetStreamError.self) { _ = try await waiting.value }
        #expect(deleted?.code == .consumerDeleted)
    }

    @Test func aPullOnAMissingConsumerTimesOut() async throws {
        let (server, client, _) = try await mailbox()
        defer { server.cleanUp() }
        defer { Task { await client.close() } }
        // A pull on a consumer that does not exist goes unanswered on 2.9: the fetch gives up after its timeout.
        let nobody = await #expect(throws: JetStreamError.self) {
            _ = try await client.jetStream(timeout: .milliseconds(500)).fetch(from: "d2", on: "MAILBOX", noWait: true)
        }
        #expect(nobody?.code == .timeout)
    }
}
