// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import NATSClient
import NIOCore
import Testing
import VettIDTestSupport

/// JetStream management and publishing against a real nats-server with JetStream (the err_codes are the ones
/// nats-server 2.9.10 answers with). Each context waits 15 s for an answer the server gives at once, so a loaded
/// machine cannot turn an answer into a timeout.
@Suite(.enabled(if: NATSServerProcess.isAvailable, "nats-server is not installed: JetStream integration tests skipped"))
struct JetStreamIntegrationTests {
    /// How long a JetStream request waits for its answer.
    private static let answerWithin = Duration.seconds(15)

    private func connected(
        _ server: NATSServerProcess,
        auth: NATSAuth = .none
    ) async throws -> NATSClient {
        let client = try NATSClient(
            configuration: .init(servers: [server.url], name: "jetstream", auth: auth, reconnect: .disabled))
        try await client.connect()
        return client
    }

    /// The JetStreamError `body` throws (a failed expectation when it throws nothing or another error).
    private func refusal(_ body: () async throws -> Void) async -> JetStreamError? {
        await #expect(throws: JetStreamError.self) { try await body() }
    }

    private func mailbox(_ name: String = "MAILBOX") -> StreamConfiguration {
        StreamConfiguration(
            name: name,
            subjects: ["mb.*.forApp.mailbox.>"],
            storage: .file,
            maxAge: .seconds(7 * 24 * 3600),
            maxBytes: 64 << 20,
            maxMessagesPerSubject: 100,
            maxMessageSize: 64 << 10,
            duplicateWindow: .seconds(120)
        )
    }

    @Test func aStreamIsCreatedReadUpdatedAndDeleted() async throws {
        let server = try await NATSServerProcess(jetStream: true)
        defer { server.cleanUp() }
        let client = try await connected(server)
        defer { Task { await client.close() } }
        let jetStream = client.jetStream(timeout: Self.answerWithin)

        let created = try await jetStream.createStream(mailbox())
        #expect(created.configuration == mailbox())
        #expect(created.state.messages == 0)
        // The same configuration again is not a conflict; another one is.
        #expect(try await jetStream.createStream(mailbox()).configuration == mailbox())
        var other = mailbox()
        other.maxMessagesPerSubject = 5
        let inUse = await refusal { try await jetStream.createStream(other) }
        #expect(inUse?.code == .streamNameInUse)
        #expect(inUse?.apiError?.code == 400)
        #expect(inUse?.apiError?.errorCode == 10058)
        let overlap = await refusal {
            try await jetStream.createStream(.init(name: "OTHER", subjects: ["mb.g1.forApp.mailbox.x"]))
        }
        #expect(overlap?.code == .subjectsOverlap)
        #expect(overlap?.apiError?.errorCode == 10065)

        let updated = try await jetStream.updateStream(other)
        #expect(updated.configuration.maxMessagesPerSubject == 5)
        #expect(try await jetStream.streamInfo("MAILBOX").configuration == other)
        var memory = other
        memory.storage = .memory
        let storageChange = await refusal { try await jetStream.updateStream(memory) }
        #expect(storageChange?.code == .apiError)
        #expect(storageChange?.apiError?.code == 500)
        #expect(storageChange?.apiError?.errorCode == 10052)

        try await jetStream.deleteStream("MAILBOX")
        for attempt in [
            { _ = try await jetStream.streamInfo("MAILBOX") },
            { try await jetStream.deleteStream("MAILBOX") },
            { try await jetStream.updateStream(other) },
        ] as [() async throws -> Void] {
            let missing = await refusal(attempt)
            #expect(missing?.code == .streamNotFound)
            #expect(missing?.apiError?.code == 404)
            #expect(missing?.apiError?.errorCode == 10059)
        }
        #expect(try await jetStream.accountInfo().streams == 0)
    }

    @Test func durablePullConsumersAreCreatedReadAndDeleted() async throws {
        let server = try await NATSServerProcess(jetStream: true)
        defer { server.cleanUp() }
        let client = try await connected(server)
        defer { Task { await client.close() } }
        let jetStream = client.jetStream(timeout: Self.answerWithin)
        try await jetStream.createStream(mailbox())
        let errors = ServerErrors(client)

        let device = ConsumerConfiguration(
            durableName: "g1-d1",
            filterSubject: "mb.g1.forApp.mailbox.>",
            ackWait: .seconds(30),
            maxDeliver: 5,
            maxAckPending: 100,
            inactiveThreshold: .seconds(3600)
        )
        let created = try await jetStream.createConsumer(device, on: "MAILBOX")
        #expect(created.streamName == "MAILBOX")
        #expect(created.name == "g1-d1")
        #expect(created.configuration == device)
        let literal = ConsumerConfiguration(durableName: "g1-d2", filterSubject: "mb.g1.forApp.mailbox.d2")
        #expect(
            try await jetStream.createConsumer(literal, on: "MAILBOX").configuration.filterSubject
                == literal.filterSubject)
        #expect(try await jetStream.consumerInfo("g1-d1", on: "MAILBOX").configuration == device)
        #expect(try await jetStream.streamInfo("MAILBOX").state.consumerCount == 2)
        // Neither create drew an -ERR (this client is not pedantic: a wildcard filter in the subject is fine).
        try await client.flush()
        #expect(await errors.collected().isEmpty)

        // The 2.9 create subject carries the filter; a body that says otherwise is refused.
        let mismatch = await refusal {
            _ = try await jetStream.request(
                "CONSUMER.CREATE.MAILBOX.g1-d3.mb.g1.forApp.mailbox.d3",
                body: ByteBuffer(
                    string: #"{"stream_name":"MAILBOX","config":{"durable_name":"g1-d3","#
                        + #""filter_subject":"mb.g2.forApp.mailbox.d3","ack_policy":"explicit"}}"#),
                as: ConsumerInfo.self)
        }
        #expect(mismatch?.code == .consumerFilterMismatch)
        #expect(mismatch?.apiError?.code == 400)
        #expect(mismatch?.apiError?.errorCode == 10131)

        let elsewhere = await refusal { try await jetStream.createConsumer(literal, on: "NOPE") }
        #expect(elsewhere?.code == .streamNotFound)
        #expect(elsewhere?.apiError?.errorCode == 10059)

        try await jetStream.deleteConsumer("g1-d1", on: "MAILBOX")
        for attempt in [
            { _ = try await jetStream.consumerInfo("g1-d1", on: "MAILBOX") },
            { try await jetStream.deleteConsumer("g1-d1", on: "MAILBOX") },
        ] as [() async throws -> Void] {
            let missing = await refusal(attempt)
            #expect(missing?.code == .consumerNotFound)
            #expect(missing?.apiError?.code == 404)
            #expect(missing?.apiError?.errorCode == 10014)
        }
        #expect(try await jetStream.streamInfo("MAILBOX").state.consumerCount == 1)
    }

    @Test func aPedanticClientCreatesAWildcardConsumerWithoutAnError() async throws {
        let server = try await NATSServerProcess(jetStream: true)
        defer { server.cleanUp() }
        let client = try NATSClient(
            configuration: .init(servers: [server.url], name: "pedantic", pedantic: true, reconnect: .disabled))
        try await client.connect()
        defer { Task { await client.close() } }
        let jetStream = client.jetStream(timeout: Self.answerWithin)
        try await jetStream.createStream(mailbox())
        // What the create avoids: the server answers a pedantic client's wildcard publish subject with -ERR.
        let probe = ServerErrors(client)
        try client.publish("probe", to: "mb.g1.forApp.mailbox.>")
        try await client.flush()
        #expect(await probe.collected(atLeast: 1).map(\.code) == [.invalidSubject])

        let errors = ServerErrors(client)
        let device = ConsumerConfiguration(durableName: "g1-d1", filterSubject: "mb.g1.forApp.mailbox.>")
        #expect(
            try await jetStream.createConsumer(device, on: "MAILBOX").configuration.filterSubject
                == device.filterSubject)
        try await client.flush()
        #expect(await errors.collected().isEmpty)
    }

    @Test func aPublishIsAcknowledgedOnceAndGuardedByTheExpectedSequence() async throws {
        let server = try await NATSServerProcess(jetStream: true)
        defer { server.cleanUp() }
        let client = try await connected(server)
        defer { Task { await client.close() } }
        let jetStream = client.jetStream(timeout: Self.answerWithin)
        try await jetStream.createStream(mailbox())

        let first = try await jetStream.publish("sealed-1", to: "mb.g1.forApp.mailbox.d1", messageID: "m-1")
        #expect(first == PubAck(stream: "MAILBOX", sequence: 1, duplicate: false))
        // The same message ID within the duplicate window is acknowledged, not stored again.
        let again = try await jetStream.publish("sealed-1", to: "mb.g1.forApp.mailbox.d1", messageID: "m-1")
        #expect(again == PubAck(stream: "MAILBOX", sequence: 1, duplicate: true))
        #expect(try await jetStream.streamInfo("MAILBOX").state.messages == 1)

        let wrong = await refusal {
            try await jetStream.publish(
                "sealed-2", to: "mb.g1.forApp.mailbox.d1", messageID: "m-2", expectedLastSequence: 5)
        }
        #expect(wrong?.code == .wrongLastSequence)
        #expect(wrong?.apiError?.code == 400)
        #expect(wrong?.apiError?.errorCode == 10071)
        let second = try await jetStream.publish(
            "sealed-2", to: "mb.g1.forApp.mailbox.d1", messageID: "m-2", expectedLastSequence: 1,
            expectedStream: "MAILBOX")
        #expect(second == PubAck(stream: "MAILBOX", sequence: 2, duplicate: false))
        let otherStream = await refusal {
            try await jetStream.publish("x", to: "mb.g1.forApp.mailbox.d1", expectedStream: "ELSEWHERE")
        }
        #expect(otherStream?.code == .apiError)
        #expect(otherStream?.apiError?.code == 400)

        let state = try await jetStream.streamInfo("MAILBOX").state
        #expect(state.messages == 2)
        #expect(state.lastSequence == 2)

        let unstored = await refusal { try await jetStream.publish("x", to: "not.in.a.stream") }
        #expect(unstored?.code == .noResponders)
    }

    /// Many publishes outstanding without a task each: every future gets its own message's PubAck, in order of
    /// sequence, and a refusal arrives through the future it belongs to.
    @Test func publishAsyncFuturesEachGetTheirOwnAcknowledgement() async throws {
        let server = try await NATSServerProcess(jetStream: true)
        defer { server.cleanUp() }
        let client = try await connected(server)
        defer { Task { await client.close() } }
        let jetStream = client.jetStream(timeout: Self.answerWithin)
        try await jetStream.createStream(mailbox())

        var futures: [PubAckFuture] = []
        for index in 0..<300 {
            futures.append(
                try await jetStream.publishAsync(
                    ByteBuffer(string: "sealed-\(index)"), to: "mb.g1.forApp.mailbox.d\(index % 10)",
                    messageID: "a-\(index)"))
        }
        var sequences: [UInt64] = []
        for future in futures.reversed() { sequences.append(try await future.value().sequence) }
        #expect(sequences.reversed() == Array(1...300))
        #expect(try await jetStream.streamInfo("MAILBOX").state.messages == 300)

        let unstored = try await jetStream.publishAsync(ByteBuffer(string: "x"), to: "not.in.a.stream")
        let refused = await refusal { _ = try await unstored.value() }
        #expect(refused?.code == .noResponders)
        let duplicate = try await jetStream.publishAsync(
            ByteBuffer(string: "sealed-0"), to: "mb.g1.forApp.mailbox.d0", messageID: "a-0")
        #expect(try await duplicate.value() == PubAck(stream: "MAILBOX", sequence: 1, duplicate: true))
        await #expect(throws: JetStreamError.self) {
            _ = try await jetStream.publishAsync(ByteBuffer(string: "x"), to: "mb.g1.forApp.mailbox.d1", messageID: "")
        }
    }

    @Test func aServerWithoutJetStreamIsNotEnabled() async throws {
        let server = try await NATSServerProcess()
        defer { server.cleanUp() }
        let client = try await connected(server)
        defer { Task { await client.close() } }
        let jetStream = client.jetStream(timeout: Self.answerWithin)
        let info = await refusal { _ = try await jetStream.accountInfo() }
        #expect(info?.code == .notEnabled)
        #expect(info?.apiError == nil)
        let create = await refusal { try await jetStream.createStream(mailbox()) }
        #expect(create?.code == .notEnabled)
        let publish = await refusal { try await jetStream.publish("x", to: "mb.g1.forApp.mailbox.d1", messageID: "m") }
        #expect(publish?.code == .noResponders)
    }

    @Test func anAccountWithoutJetStreamIsNotEnabled() async throws {
        let server = try await NATSServerProcess(
            configuration: """
                accounts {
                  VAULT: { jetstream: enabled, users: [ { user: vault, password: vault } ] }
                  PLAIN: { users: [ { user: plain, password: plain } ] }
                }
                """,
            jetStream: true)
        defer { server.cleanUp() }
        let vault = try await connected(server, auth: .userPassword(user: "vault", password: "vault"))
        defer { Task { await vault.close() } }
        #expect(try await vault.jetStream(timeout: Self.answerWithin).accountInfo().streams == 0)

        let plain = try await connected(server, auth: .userPassword(user: "plain", password: "plain"))
        defer { Task { await plain.close() } }
        let info = await refusal { _ = try await plain.jetStream(timeout: Self.answerWithin).accountInfo() }
        #expect(info?.code == .notEnabled)
        #expect(info?.apiError?.code == 503)
        #expect(info?.apiError?.errorCode == 10039)
        let create = await refusal { try await plain.jetStream(timeout: Self.answerWithin).createStream(mailbox()) }
        #expect(create?.code == .notEnabled)
        #expect(create?.apiError?.errorCode == 10039)
    }
}

/// The `error` events of a client from now on.
private final class ServerErrors: Sendable {
    private actor Log {
        var errors: [NATSError] = []
        func append(_ error: NATSError) { errors.append(error) }
    }

    private let log = Log()
    private let task: Task<Void, Never>

    init(_ client: NATSClient) {
        let events = client.makeEventStream()
        let log = self.log
        task = Task {
            for await event in events {
                if case .error(let error) = event { await log.append(error) }
            }
        }
    }

    /// The errors reported: once `count` arrived (waiting up to 10 s for them), those reported within `wait`
    /// after (a server's `-ERR` answers a write at once). Only the absence of an error rests on the short wait: a
    /// late one is missed, an expected one is waited for.
    func collected(atLeast count: Int = 0, within wait: Duration = .milliseconds(200)) async -> [NATSError] {
        _ = await eventually { await log.errors.count >= count }
        try? await Task.sleep(for: wait)
        task.cancel()
        return await log.errors
    }
}
