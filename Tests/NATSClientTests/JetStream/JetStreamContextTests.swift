// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import NIOCore
import Testing

@testable import NATSClient

/// What a JetStreamContext sends and how it reads the answers, on the fake server.
@Suite struct JetStreamContextTests {
    /// Answers the request `operation` carried with `status` headers or a JSON body.
    private func answer(
        _ connection: FakeNATSConnection,
        sid: UInt64,
        reply: String,
        json: String? = nil,
        status: Int? = nil
    ) async throws {
        if let status {
            let block = "NATS/1.0 \(status)\r\n\r\n"
            try await connection.send("HMSG \(reply) \(sid) \(block.utf8.count) \(block.utf8.count)\r\n\(block)\r\n")
        } else {
            let body = json ?? ""
            try await connection.send("MSG \(reply) \(sid) \(body.utf8.count)\r\n\(body)\r\n")
        }
    }

    @Test func aRequestGoesToThePrefixedSubjectAndItsAnswerDecodes() async throws {
        let (server, client, connection, _) = try await FakeServerSupport.connected()
        defer {
            Task {
                await client.close(); await server.stop()
            }
        }
        let jetStream = client.jetStream(apiPrefix: "$JS.hub.API")
        let info = Task { try await jetStream.streamInfo("MAILBOX") }
        guard case .subscribe(_, nil, let sid) = try await connection.next(),
            case .publish("$JS.hub.API.STREAM.INFO.MAILBOX", let reply?, "") = try await connection.next()
        else {
            Issue.record("expected the STREAM.INFO request")
            return
        }
        try await answer(
            connection, sid: sid, reply: reply,
            json: #"{"config":{"name":"MAILBOX","subjects":["m.>"],"max_msgs":-1},"state":{"messages":2,"last_seq":9}}"#
        )
        let result = try await info.value
        #expect(result.configuration == StreamConfiguration(name: "MAILBOX", subjects: ["m.>"]))
        #expect(result.state.messages == 2)
        #expect(result.state.lastSequence == 9)
    }

    @Test func noRespondersOnTheAPIIsJetStreamNotEnabled() async throws {
        let (server, client, connection, _) = try await FakeServerSupport.connected()
        defer {
            Task {
                await client.close(); await server.stop()
            }
        }
        let info = Task { try await client.jetStream().accountInfo() }
        guard case .subscribe(_, nil, let sid) = try await connection.next(),
            case .publish("$JS.API.INFO", let reply?, "") = try await connection.next()
        else {
            Issue.record("expected the INFO request")
            return
        }
        try await answer(connection, sid: sid, reply: reply, status: 503)
        let error = await #expect(throws: JetStreamError.self) { _ = try await info.value }
        #expect(error?.code == .notEnabled)
    }

    @Test func aRequestWithoutAnswerTimesOut() async throws {
        let (server, client, connection, _) = try await FakeServerSupport.connected()
        defer {
            Task {
                await client.close(); await server.stop()
            }
        }
        let jetStream = client.jetStream(timeout: .milliseconds(100))
        let deleting = Task { try await jetStream.deleteStream("S") }
        guard case .subscribe = try await connection.next(),
            case .publish("$JS.API.STREAM.DELETE.S", _?, "") = try await connection.next()
        else {
            Issue.record("expected the STREAM.DELETE request")
            return
        }
        await server.advanceClock(by: .milliseconds(100))
        let error = await #expect(throws: JetStreamError.self) { try await deleting.value }
        #expect(error?.code == .timeout)
        #expect(error?.underlying is NATSError)
    }

    @Test(arguments: ["m.g1.x", "m.g1.>", "m.*.x"])
    func theFilterGoesIntoTheCreateSubject(filter: String) async throws {
        let (server, client, connection, _) = try await FakeServerSupport.connected()
        defer {
            Task {
                await client.close(); await server.stop()
            }
        }
        let creating = Task {
            try await client.jetStream().createConsumer(.init(durableName: "C", filterSubject: filter), on: "S")
        }
        guard case .subscribe(_, nil, let sid) = try await connection.next(),
            case .publish("$JS.API.CONSUMER.CREATE.S.C.\(filter)", let reply?, let body) = try await connection.next()
        else {
            Issue.record("expected the CONSUMER.CREATE request with the filter")
            return
        }
        #expect(body.contains(#""filter_subject":"\#(filter)""#))
        #expect(body.contains(#""stream_name":"S""#))
        try await answer(connection, sid: sid, reply: reply, json: Self.created)
        #expect(try await creating.value.name == "C")
    }

    @Test func aPedanticClientKeepsAWildcardFilterOutOfTheSubject() async throws {
        let (server, client, connection, _) = try await FakeServerSupport.connected { $0.pedantic = true }
        defer {
            Task {
                await client.close(); await server.stop()
            }
        }
        let jetStream = client.jetStream()
        let wildcard = Task {
            try await jetStream.createConsumer(.init(durableName: "C", filterSubject: "m.g1.>"), on: "S")
        }
        guard case .subscribe(_, nil, let sid) = try await connection.next(),
            case .publish("$JS.API.CONSUMER.CREATE.S.C", let reply?, let body) = try await connection.next()
        else {
            Issue.record("expected the CONSUMER.CREATE request without the filter")
            return
        }
        #expect(body.contains(#""filter_subject":"m.g1.>""#))
        try await answer(connection, sid: sid, reply: reply, json: Self.created)
        #expect(try await wildcard.value.streamName == "S")

        let literal = Task {
            try await jetStream.createConsumer(.init(durableName: "C", filterSubject: "m.g1.x"), on: "S")
        }
        guard case .publish("$JS.API.CONSUMER.CREATE.S.C.m.g1.x", let reply?, _) = try await connection.next() else {
            Issue.record("expected the CONSUMER.CREATE request with the literal filter")
            return
        }
        try await answer(connection, sid: sid, reply: reply, json: Self.created)
        #expect(try await literal.value.name == "C")
    }

    private static let created =
        #"{"stream_name":"S","name":"C","config":{"durable_name":"C","ack_policy":"explicit"}}"#

    @Test func aPublishCarriesItsHeadersAndReadsThePubAck() async throws {
        let (server, client, connection, _) = try await FakeServerSupport.connected()
        defer {
            Task {
                await client.close(); await server.stop()
            }
        }
        let publishing = Task {
            try await client.jetStream().publish(
                "sealed", to: "m.g1.d1", messageID: "msg-1", expectedLastSequence: 41, expectedStream: "MAILBOX")
        }
        guard case .subscribe(_, nil, let sid) = try await connection.next(),
            case .headerPublish("m.g1.d1", let reply?, let headers, "sealed") = try await connection.next()
        else {
            Issue.record("expected the publish with headers")
            return
        }
        #expect(
            headers
                == "NATS/1.0\r\nNats-Msg-Id: msg-1\r\nNats-Expected-Last-Sequence: 41\r\n"
                + "Nats-Expected-Stream: MAILBOX\r\n\r\n")
        try await answer(connection, sid: sid, reply: reply, json: #"{"stream":"MAILBOX", "seq":42,"duplicate": true}"#)
        #expect(try await publishing.value == PubAck(stream: "MAILBOX", sequence: 42, duplicate: true))
    }

    @Test func aPublishWithoutHeadersIsAPlainRequest() async throws {
        let (server, client, connection, _) = try await FakeServerSupport.connected()
        defer {
            Task {
                await client.close(); await server.stop()
            }
        }
        let publishing = Task { try await client.jetStream().publish("one", to: "m.x") }
        guard case .subscribe(_, nil, let sid) = try await connection.next(),
            case .publish("m.x", let reply?, "one") = try await connection.next()
        else {
            Issue.record("expected a plain publish")
            return
        }
        try await answer(
            connection, sid: sid, reply: reply,
            json:
                #"{"error":{"code":400,"err_code":10071,"description":"wrong last sequence: 1"},"stream":"MB","seq":0}"#
        )
        let error = await #expect(throws: JetStreamError.self) { _ = try await publishing.value }
        #expect(error?.code == .wrongLastSequence)
        #expect(error?.apiError?.errorCode == 10071)
    }

    @Test func aPublishNoStreamStoresIsNoResponders() async throws {
        let (server, client, connection, _) = try await FakeServerSupport.connected()
        defer {
            Task {
                await client.close(); await server.stop()
            }
        }
        let publishing = Task { try await client.jetStream().publish("one", to: "nowhere", messageID: "m") }
        guard case .subscribe(_, nil, let sid) = try await connection.next(),
            case .headerPublish("nowhere", let reply?, _, "one") = try await connection.next()
        else {
            Issue.record("expected the publish")
            return
        }
        try await answer(connection, sid: sid, reply: reply, status: 503)
        let error = await #expect(throws: JetStreamError.self) { _ = try await publishing.value }
        #expect(error?.code == .noResponders)
    }

    @Test func badArgumentsAreRefusedBeforeAnythingIsSent() async throws {
        // Never connected: each refusal comes from the checks before the request.
        let client = try NATSClient(configuration: .init(servers: ["nats://127.0.0.1:1"]))
        let jetStream = client.jetStream()
        #expect(await code { try await jetStream.createStream(.init(name: "a.b", subjects: ["x"])) } == .invalidName)
        #expect(await code { _ = try await jetStream.streamInfo("") } == .invalidName)
        #expect(await code { try await jetStream.createConsumer(.init(durableName: "c*"), on: "S") } == .invalidName)
        #expect(
            await code { try await jetStream.createConsumer(.init(durableName: "c", filterSubject: "a..b"), on: "S") }
                == .invalidSubject)
        #expect(await code { try await jetStream.publish("x", to: "s", messageID: "") } == .invalidMessageID)
        #expect(
            await code { try await jetStream.publish("x", to: "s", messageID: "a\r\nNats-Expected-Stream: b") }
                == .invalidMessageID)
        #expect(await code { _ = try await client.jetStream(apiPrefix: "$JS.>").accountInfo() } == .invalidSubject)
        await client.close()
    }

    /// The code of the JetStreamError `body` throws, `nil` when it throws nothing or another error.
    private func code(_ body: () async throws -> Void) async -> JetStreamError.Code? {
        do {
            try await body()
            return nil
        } catch let error as JetStreamError {
            return error.code
        } catch {
            return nil
        }
    }
}
