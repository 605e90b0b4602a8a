// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import NATSClient
import NIOCore
import Testing
import VettIDTestSupport

/// The ordered consumer against a real nats-server with JetStream: a replay in stream order, and a replay that goes
/// on, without losing or repeating a message, after its consumer was deleted on the server and after the server
/// restarted.
///
/// Nothing here depends on how fast the machine is: a missed heartbeat (1 s heartbeats) may replace a consumer more
/// often on a loaded machine, which the replay must survive anyway; the assertions are on what was delivered. A
/// replay that stops making progress ends by itself: every pull has a watchdog, and 30 failures in a row (with pauses
/// of up to 5 s between them) end it with an error.
@Suite(.enabled(if: NATSServerProcess.isAvailable, "nats-server is not installed: JetStream integration tests skipped"))
struct JetStreamOrderedConsumerIntegrationTests {
    private static let answerWithin = Duration.seconds(15)

    /// A server with JetStream, a client that reconnects quickly, a stream `EVENTS` on `ev.>` (on disk, so it
    /// survives a restart) holding `count` messages: `e<n>` on `ev.a` for odd n and `ev.b` for even n.
    private func events(count: Int) async throws -> (NATSServerProcess, NATSClient, JetStreamContext) {
        let server = try await NATSServerProcess(jetStream: true)
        let client = try NATSClient(
            configuration: .init(
                servers: [server.url], name: "ordered",
                reconnect: NATSReconnectPolicy(
                    maxAttemptsPerServer: nil, wait: .milliseconds(100), jitter: .milliseconds(20))))
        try await client.connect()
        let jetStream = client.jetStream(timeout: Self.answerWithin)
        try await jetStream.createStream(.init(name: "EVENTS", subjects: ["ev.>"], storage: .file))
        for index in 1...count {
            let ack = try await jetStream.publish("e\(index)", to: index % 2 == 1 ? "ev.a" : "ev.b")
            #expect(ack.sequence == UInt64(index))
        }
        return (server, client, jetStream)
    }

    /// Short heartbeats, so a lost consumer is noticed within seconds; ends when caught up.
    private func replay(batch: Int = 10, filter: String? = nil) -> OrderedConsumerConfiguration {
        OrderedConsumerConfiguration(
            filterSubject: filter, batch: batch, expires: .seconds(10), idleHeartbeat: .seconds(1),
            inactiveThreshold: .seconds(60), endWhenCaughtUp: true, maxConsecutiveFailures: 30)
    }

    @Test func aReplayDeliversEveryMessageOnceInStreamOrderAndEnds() async throws {
        let (server, client, jetStream) = try await events(count: 120)
        defer { server.cleanUp() }
        defer { Task { await client.close() } }

        var sequences: [UInt64] = []
        var payloads: [String] = []
        for try await message in jetStream.orderedConsumer(on: "EVENTS", configuration: replay(batch: 25)) {
            sequences.append(message.metadata.streamSequence)
            payloads.append(String(buffer: message.payload))
            #expect(message.metadata.delivered == 1)
        }
        #expect(sequences == Array(1...120))
        #expect(payloads == (1...120).map { "e\($0)" })

        // A filter, from a start sequence: the odd ones from 51 on.
        var configuration = replay(filter: "ev.a")
        configuration.deliverPolicy = .startSequence(51)
        var filtered: [UInt64] = []
        for try await message in jetStream.orderedConsumer(on: "EVENTS", configuration: configuration) {
            filtered.append(message.metadata.streamSequence)
            #expect(message.subject == "ev.a")
        }
        #expect(filtered == Array(stride(from: 51, through: 119, by: 2)))

        // Caught up, each replay deleted its consumer.
        #expect(
            await eventually(timeout: .seconds(30)) {
                (try? await jetStream.streamInfo("EVENTS").state.consumerCount) == 0
            })
    }

    @Test func aConsumerDeletedOnTheServerMidReplayIsReplacedWithoutLossOrRepeat() async throws {
        let (server, client, jetStream) = try await events(count: 100)
        defer { server.cleanUp() }
        defer { Task { await client.close() } }

        var iterator = jetStream.orderedConsumer(on: "EVENTS", configuration: replay(batch: 10)).makeAsyncIterator()
        var sequences: [UInt64] = []
        var deleted: String?
        while let message = try await iterator.next() {
            sequences.append(message.metadata.streamSequence)
            if sequences.count == 25 {
                let name = try #require(iterator.consumerName)
                // Deleted behind the replay's back: its next pull goes unanswered (nats-server 2.9), the heartbeats
                // stop, and the replay starts a new consumer after the last message it handed out.
                try await jetStream.deleteConsumer(name, on: "EVENTS")
                deleted = name
            }
        }
        #expect(sequences == Array(1...100))
        #expect(iterator.resets >= 1)
        #expect(iterator.consumerName == nil)
        #expect(deleted != nil)
        #expect(iterator.lastStreamSequence == 100)
    }

    @Test func aServerRestartMidReplayIsSurvivedWithoutLossOrRepeat() async throws {
        let (server, client, jetStream) = try await events(count: 100)
        defer { server.cleanUp() }
        defer { Task { await client.close() } }

        var iterator = jetStream.orderedConsumer(on: "EVENTS", configuration: replay(batch: 10)).makeAsyncIterator()
        var sequences: [UInt64] = []
        var restarted: NATSServerProcess?
        defer { restarted?.cleanUp() }
        while let message = try await iterator.next() {
            sequences.append(message.metadata.streamSequence)
            if sequences.count == 35 {
                // The consumer lives in the server's memory: it is gone after the restart; the stream is on disk.
                let before = client.statistics.reconnects
                server.stop()
                restarted = try await server.restarted()
                #expect(await eventually(timeout: .seconds(30)) { client.statistics.reconnects > before })
            }
        }
        #expect(sequences == Array(1...100))
        #expect(iterator.resets >= 1)
        #expect(client.statistics.reconnects >= 1)
    }

    @Test func aReplayThatDoesNotEndDeliversMessagesPublishedWhileItWaits() async throws {
        let (server, client, jetStream) = try await events(count: 3)
        defer { server.cleanUp() }
        defer { Task { await client.close() } }

        var configuration = replay()
        configuration.endWhenCaughtUp = false
        var iterator = jetStream.orderedConsumer(on: "EVENTS", configuration: configuration).makeAsyncIterator()
        var sequences: [UInt64] = []
        for _ in 1...3 { sequences.append(try #require(try await iterator.next()).metadata.streamSequence) }
        // Caught up, the next pull waits (one message at a time); these arrive while it does.
        let publisher = Task {
            for index in 4...10 { try await jetStream.publish("e\(index)", to: "ev.b") }
        }
        for _ in 4...10 { sequences.append(try #require(try await iterator.next()).metadata.streamSequence) }
        try await publisher.value
        #expect(sequences == Array(1...10))
        let name = try #require(iterator.consumerName)
        await iterator.finish()
        let gone = await #expect(throws: JetStreamError.self) { try await jetStream.consumerInfo(name, on: "EVENTS") }
        #expect(gone?.code == .consumerNotFound)
    }
}
