// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import NATSClient
import NIOCore
import Testing
import VettIDTestSupport

/// Pull fetches and acks against a real nats-server with JetStream (the statuses are nats-server 2.9.10's).
@Suite(.enabled(if: NATSServerProcess.isAvailable, "nats-server is not installed: JetStream integration tests skipped"))
struct JetStreamFetchIntegrationTests {
    /// A server with JetStream, a connected client, and a stream `MAILBOX` on `mb.>` with a consumer `d1` on
    /// `mb.g1.d1` (explicit acks, `ackWait`).
    private func mailbox(ackWait: Duration = .seconds(30)) async throws -> (
        NATSServerProcess, NATSClient, JetStreamContext
    ) {
        let server = try await NATSServerProcess(jetStream: true)
        let client = try NATSClient(configuration: .init(servers: [server.url], name: "fetch", reconnect: .disabled))
        try await client.connect()
        let jetStream = client.jetStream()
        try await jetStream.createStream(.init(name: "MAILBOX", subjects: ["mb.>"], storage: .memory))
        try await jetStream.createConsumer(
            .init(durableName: "d1", filterSubject: "mb.g1.d1", ackWait: ackWait, maxDeliver: 5), on: "MAILBOX")
        return (server, client, jetStream)
    }

    private func texts(_ messages: [JetStreamMessage]) -> [String] {
        messages.map { String(buffer: $0.payload) }
    }

    @Test func messagesArriveInOrderAndAnAckedOneIsNotDeliveredAgain() async throws {
        let (server, client, jetStream) = try await mailbox(ackWait: .seconds(1))
        defer { server.cleanUp() }
        defer { Task { await client.close() } }
        #expect(try await jetStream.fetch(batch: 5, from: "d1", on: "MAILBOX", noWait: true).isEmpty)
        for index in 1...3 { try await jetStream.publish("m\(index)", to: "mb.g1.d1", messageID: "id-\(index)") }
        try await jetStream.publish("other device", to: "mb.g1.d2")

        let first = try await jetStream.fetch(batch: 2, from: "d1", on: "MAILBOX", expires: .seconds(2))
        #expect(texts(first) == ["m1", "m2"])
        #expect(first.map(\.metadata.streamSequence) == [1, 2])
        #expect(first.map(\.metadata.delivered) == [1, 1])
        #expect(first.first?.metadata.stream == "MAILBOX")
        #expect(first.first?.metadata.consumer == "d1")
        #expect(first.first?.metadata.pending == 2)
        try await first[0].ackAcknowledged()
        // Acknowledged: the server has the NAK before the next pull (a plain ack races with it).
        try await first[1].ackAcknowledged(.nak())
        // Fewer than the batch wait: no_wait returns them (the server ends with 408).
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
        let (server, client, jetStream) = try await mailbox(ackWait: .seconds(1))
        defer { server.cleanUp() }
        defer { Task { await client.close() } }
        for index in 1...3 { try await jetStream.publish("m\(index)", to: "mb.g1.d1") }
        let delivered = try await jetStream.fetch(batch: 3, from: "d1", on: "MAILBOX", noWait: true)
        #expect(texts(delivered) == ["m1", "m2", "m3"])
        try await delivered[0].ackAcknowledged(.nak(delay: .milliseconds(300)))
        try await delivered[1].ackAcknowledged(.terminate)
        try await delivered[2].ackAcknowledged(.inProgress)
        // Right away nothing is due: m1 waits for its delay, m2 is terminated, m3 had its ack wait restarted.
        #expect(try await jetStream.fetch(batch: 3, from: "d1", on: "MAILBOX", noWait: true).isEmpty)
        let again = try await jetStream.fetch(batch: 1, from: "d1", on: "MAILBOX", expires: .seconds(3))
        #expect(texts(again) == ["m1"])
        #expect(again.first?.metadata.delivered == 2)
        try await again[0].ackAcknowledged()
        // m3 comes back after its ack wait; m2 never does.
        let late = try await jetStream.fetch(batch: 1, from: "d1", on: "MAILBOX", expires: .seconds(3))
        #expect(texts(late) == ["m3"])
        try await late[0].ackAcknowledged()
        #expect(try await jetStream.fetch(batch: 3, from: "d1", on: "MAILBOX", expires: .milliseconds(1500)).isEmpty)
    }

    @Test func statusesEndOrRefuseAPull() async throws {
        let (server, client, jetStream) = try await mailbox()
        defer { server.cleanUp() }
        defer { Task { await client.close() } }
        // Expired with heartbeats on the way: the 408 ends it, nothing is missed.
        let started = ContinuousClock.now
        let idle = try await jetStream.fetch(
            batch: 1, from: "d1", on: "MAILBOX", expires: .seconds(1), idleHeartbeat: .milliseconds(200))
        #expect(idle.isEmpty)
        #expect(ContinuousClock.now - started >= .milliseconds(900))

        // A message larger than max_bytes: 409 Message Size Exceeds MaxBytes ends the pull without it.
        try await jetStream.publish(String(repeating: "x", count: 200), to: "mb.g1.d1")
        #expect(
            try await jetStream.fetch(batch: 1, from: "d1", on: "MAILBOX", expires: .seconds(1), maxBytes: 50).isEmpty)
        #expect(try await jetStream.fetch(batch: 1, from: "d1", on: "MAILBOX", noWait: true).count == 1)

        // A heartbeat too close to the expiry: 400 Bad Request.
        let refused = await #expect(throws: JetStreamError.self) {
            _ = try await jetStream.fetch(
                from: "d1", on: "MAILBOX", expires: .seconds(1), idleHeartbeat: .milliseconds(900))
        }
        #expect(refused?.code == .pullRefused)
        #expect(refused?.apiError?.code == 400)

        // The consumer goes while a pull waits: 409 Consumer Deleted.
        let waiting = Task { try await jetStream.fetch(from: "d1", on: "MAILBOX", expires: .seconds(5)) }
        try await Task.sleep(for: .milliseconds(300))
        try await jetStream.deleteConsumer("d1", on: "MAILBOX")
        let deleted = await #expect(throws: JetStreamError.self) { _ = try await waiting.value }
        #expect(deleted?.code == .consumerDeleted)

        // A pull on a consumer that does not exist goes unanswered on 2.9: the fetch gives up after its timeout.
        let nobody = await #expect(throws: JetStreamError.self) {
            _ = try await client.jetStream(timeout: .milliseconds(500)).fetch(from: "d1", on: "MAILBOX", noWait: true)
        }
        #expect(nobody?.code == .timeout)
    }
}
