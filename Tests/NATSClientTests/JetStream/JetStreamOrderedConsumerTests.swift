// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import NIOCore
import Testing
import VettIDTestSupport

@testable import NATSClient

/// The ordered consumer's iterator on the fake server: what it creates, pulls and deletes when a delivery leaves a
/// gap. The pulls' watchdog runs on a ManualClock nobody moves, so no pull ends unless the test ends it.
@Suite struct JetStreamOrderedConsumerTests {
    /// What the fake server saw of the iterator, in order, and the reply subjects to answer.
    private struct Script {
        let connection: FakeNATSConnection
        /// The request multiplexer's subscription (the create and delete answers go there).
        var requestSid: UInt64?
        var sids: [String: UInt64] = [:]
        var deleted: [String] = []

        /// Reads until the iterator creates a consumer; answers it with `pending` and returns its name and body.
        mutating func create(pending: Int) async throws -> (name: String, body: String) {
            while true {
                switch try await connection.next() {
                case .subscribe(let subject, nil, let sid):
                    if subject.hasSuffix(".*") { requestSid = sid } else { sids[subject] = sid }
                case .publish(let subject, let reply?, let body) where subject.hasPrefix("$JS.API.CONSUMER.CREATE."):
                    let tokens = subject.split(separator: ".")
                    let name = String(tokens[5])
                    let answer = #"{"stream_name":"EVENTS","name":"\#(name)","num_pending":\#(pending)}"#
                    try await send(answer, to: reply)
                    return (name, body)
                case .publish(let subject, let reply?, _) where subject.hasPrefix("$JS.API.CONSUMER.DELETE."):
                    deleted.append(String(subject.split(separator: ".")[5]))
                    try await send(#"{"success":true}"#, to: reply)
                case .connect, .ping, .pong, .unsubscribe:
                    continue
                case let other:
                    throw FakeProtocolViolation(description: "unexpected \(other) before a create")
                }
            }
        }

        /// Reads until the iterator pulls from `consumer`; returns the pull's reply subject, its sid and its body.
        mutating func pull(_ consumer: String) async throws -> (inbox: String, sid: UInt64, body: String) {
            while true {
                switch try await connection.next() {
                case .subscribe(let subject, nil, let sid):
                    sids[subject] = sid
                case .publish("$JS.API.CONSUMER.MSG.NEXT.EVENTS.\(consumer)", let inbox?, let body):
                    return (inbox, try #require(sids[inbox]), body)
                case .publish(let subject, let reply?, _) where subject.hasPrefix("$JS.API.CONSUMER.DELETE."):
                    deleted.append(String(subject.split(separator: ".")[5]))
                    try await send(#"{"success":true}"#, to: reply)
                case .connect, .ping, .pong, .unsubscribe:
                    continue
                case let other:
                    throw FakeProtocolViolation(description: "unexpected \(other) before a pull")
                }
            }
        }

        func send(_ json: String, to reply: String) async throws {
            let sid = try #require(requestSid, "no request subscription")
            try await connection.send("MSG \(reply) \(sid) \(json.utf8.count)\r\n\(json)\r\n")
        }

        func deliver(
            _ pull: (inbox: String, sid: UInt64, body: String), consumer: String, stream: Int, sequence: Int,
            pending: Int
        ) async throws {
            let reply = "$JS.ACK.EVENTS.\(consumer).1.\(stream).\(sequence).1795890431033768813.\(pending)"
            let payload = "e\(stream)"
            try await connection.send("MSG ev.a \(pull.sid) \(reply) \(payload.utf8.count)\r\n\(payload)\r\n")
        }

        func requestTimeout(_ pull: (inbox: String, sid: UInt64, body: String)) async throws {
            let block = "NATS/1.0 408 Request Timeout\r\n\r\n"
            try await connection.send(
                "HMSG \(pull.inbox) \(pull.sid) \(block.utf8.count) \(block.utf8.count)\r\n\(block)\r\n")
        }
    }

    @Test func aGapReplacesTheConsumerFromTheLastDeliveredSequence() async throws {
        let (server, client, connection, _) = try await FakeServerSupport.connected()
        defer {
            Task {
                await client.close(); await server.stop()
            }
        }
        let configuration = OrderedConsumerConfiguration(
            filterSubject: "ev.a", batch: 5, expires: .seconds(30), idleHeartbeat: .seconds(5), endWhenCaughtUp: true)
        let replay = client.jetStream().orderedConsumer(
            on: "EVENTS", configuration: configuration, clock: ManualClock())
        let reading = Task {
            var received: [UInt64] = []
            for try await message in replay { received.append(message.metadata.streamSequence) }
            return received
        }
        var script = Script(connection: connection)

        let (first, body) = try await script.create(pending: 4)
        #expect(body.contains(#""deliver_policy":"all""#))
        #expect(body.contains(#""ack_policy":"none""#))
        #expect(body.contains(#""max_deliver":1"#))
        #expect(body.contains(#""mem_storage":true"#))
        #expect(body.contains(#""inactive_threshold":300000000000"#))
        #expect(body.contains(#""filter_subject":"ev.a""#))
        #expect(!body.contains("durable_name"))
        let pull = try await script.pull(first)
        #expect(pull.body.contains(#""batch":4"#))
        try await script.deliver(pull, consumer: first, stream: 10, sequence: 1, pending: 3)
        try await script.deliver(pull, consumer: first, stream: 11, sequence: 2, pending: 2)
        // Consumer sequence 3 is lost: 4 is a gap.
        try await script.deliver(pull, consumer: first, stream: 14, sequence: 4, pending: 0)
        try await script.requestTimeout(pull)

        let (second, restart) = try await script.create(pending: 2)
        #expect(second != first)
        #expect(restart.contains(#""deliver_policy":"by_start_sequence""#))
        #expect(restart.contains(#""opt_start_seq":12"#))
        let again = try await script.pull(second)
        #expect(again.body.contains(#""batch":2"#))
        try await script.deliver(again, consumer: second, stream: 13, sequence: 1, pending: 1)
        try await script.deliver(again, consumer: second, stream: 14, sequence: 2, pending: 0)

        #expect(try await reading.value == [10, 11, 13, 14])
        // The consumer given up, and the last one once caught up, are deleted.
        while script.deleted.count < 2 {
            switch try await connection.next() {
            case .publish(let subject, let reply?, _) where subject.hasPrefix("$JS.API.CONSUMER.DELETE."):
                script.deleted.append(String(subject.split(separator: ".")[5]))
                try await script.send(#"{"success":true}"#, to: reply)
            default:
                continue
            }
        }
        #expect(Set(script.deleted) == [first, second])
    }
}
