// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import NATSClient
import NIOCore
import Testing
import VettIDCrypto
import VettIDTestSupport

/// Waits for the first event matching `predicate`, or fails after `timeout`.
func firstEvent(
    _ client: NATSClient,
    timeout: Duration = .seconds(5),
    where predicate: @escaping @Sendable (NATSEvent) -> Bool
) async throws -> NATSEvent {
    try await withThrowingTaskGroup(of: NATSEvent?.self) { group in
        group.addTask {
            for await event in client.events where predicate(event) { return event }
            return nil
        }
        group.addTask {
            try await Task.sleep(for: timeout)
            return nil
        }
        let first = try await group.next() ?? nil
        group.cancelAll()
        return try #require(first, "no matching event within \(timeout)")
    }
}

func collect(_ subscription: NATSSubscription, count: Int, timeout: Duration = .seconds(5)) async throws
    -> [NATSMessage]
{
    try await withThrowingTaskGroup(of: [NATSMessage]?.self) { group in
        group.addTask {
            var messages: [NATSMessage] = []
            for await message in subscription {
                messages.append(message)
                if messages.count == count { break }
            }
            return messages
        }
        group.addTask {
            try await Task.sleep(for: timeout)
            return nil
        }
        let first = try await group.next() ?? nil
        group.cancelAll()
        return try #require(first, "fewer than \(count) messages within \(timeout)")
    }
}

@Suite(.enabled(if: NATSServerProcess.isAvailable, "nats-server is not installed: NATS integration tests skipped"))
struct NATSIntegrationTests {
    func client(_ server: NATSServerProcess, configure: (inout NATSClient.Configuration) -> Void = { _ in }) throws
        -> NATSClient
    {
        var configuration = NATSClient.Configuration(servers: [server.url], name: "integration")
        configure(&configuration)
        return try NATSClient(configuration: configuration)
    }

    @Test func publishSubscribeRequestReplyAndHeaders() async throws {
        let server = try await NATSServerProcess()
        defer { server.cleanUp() }
        let client = try client(server)
        try await client.connect()
        #expect(client.isConnected)
        #expect(client.serverInfo?.maxPayload == 1_048_576)

        let subscription = try client.subscribe(to: "greet.*")
        try await client.flush()
        for index in 0..<100 { try client.publish("hello \(index)", to: "greet.joe") }
        var headers = NATSHeaders()
        headers.append(name: "Trace-Id", value: "abc")
        try client.publish("with headers", to: "greet.hdr", headers: headers)
        let messages = try await collect(subscription, count: 101)
        #expect(messages.prefix(100).map(\.payloadString) == (0..<100).map { "hello \($0)" })
        #expect(messages[100].headers?["Trace-Id"] == "abc")
        #expect(messages[100].subject == "greet.hdr")

        // A responder on another connection.
        let responder = try self.client(server)
        try await responder.connect()
        let service = try responder.subscribe(to: "math.double")
        let serviceTask = Task {
            for await request in service {
                let value = Int(request.payloadString) ?? 0
                if let reply = request.replyTo { try responder.publish("\(value * 2)", to: reply) }
            }
        }
        try await responder.flush()
        let answers = try await withThrowingTaskGroup(of: String.self) { group in
            for value in 1...20 {
                group.addTask {
                    try await client.request("\(value)", to: "math.double", timeout: .seconds(5)).payloadString
                }
            }
            var answers: [String] = []
            for try await answer in group { answers.append(answer) }
            return answers
        }
        #expect(Set(answers) == Set((1...20).map { "\($0 * 2)" }))

        let statistics = client.statistics
        #expect(statistics.outMessages == 121)
        #expect(statistics.inMessages >= 121)
        serviceTask.cancel()
        await responder.close()
        await client.close()
        #expect(!client.isConnected)
        #expect(throws: NATSError.self) { try client.publish("late", to: "x") }
    }

    @Test func queueGroupsShareMessages() async throws {
        let server = try await NATSServerProcess()
        defer { server.cleanUp() }
        let client = try client(server)
        try await client.connect()
        let first = try client.subscribe(to: "jobs", queue: "workers")
        let second = try client.subscribe(to: "jobs", queue: "workers")
        let observer = try client.subscribe(to: "jobs")
        try await client.flush()
        for index in 0..<200 { try client.publish("\(index)", to: "jobs") }
        try await client.flush()
        let seen = try await collect(observer, count: 200)
        #expect(seen.count == 200)
        first.unsubscribe()
        second.unsubscribe()
        var total = 0
        for await _ in first { total += 1 }
        for await _ in second { total += 1 }
        #expect(total == 200)
        await client.close()
    }

    @Test func autoUnsubscribeAfterN() async throws {
        let server = try await NATSServerProcess()
        defer { server.cleanUp() }
        let client = try client(server)
        try await client.connect()
        let subscription = try client.subscribe(to: "limited")
        subscription.unsubscribe(after: 5)
        try await client.flush()
        for index in 0..<20 { try client.publish("\(index)", to: "limited") }
        try await client.flush()
        var received: [String] = []
        for await message in subscription { received.append(message.payloadString) }
        #expect(received == ["0", "1", "2", "3", "4"])
        await client.close()
    }

    @Test func noRespondersIsItsOwnError() async throws {
        let server = try await NATSServerProcess()
        defer { server.cleanUp() }
        let client = try client(server)
        try await client.connect()
        do {
            _ = try await client.request("ping", to: "nobody.home", timeout: .seconds(2))
            Issue.record("a request without responders succeeded")
        } catch let error as NATSError {
            #expect(error.code == .noResponders)
        }
        await client.close()
    }

    @Test func requestTimesOut() async throws {
        let server = try await NATSServerProcess()
        defer { server.cleanUp() }
        let client = try client(server)
        try await client.connect()
        let silent = try client.subscribe(to: "silent")
        try await client.flush()
        let start = ContinuousClock.now
        do {
            _ = try await client.request("?", to: "silent", timeout: .milliseconds(300))
            Issue.record("a request to a silent subscriber succeeded")
        } catch let error as NATSError {
            #expect(error.code == .timeout)
        }
        #expect(ContinuousClock.now - start >= .milliseconds(250))
        silent.unsubscribe()
        await client.close()
    }

    @Test func maxPayloadIsEnforcedOnTheClient() async throws {
        let server = try await NATSServerProcess(configuration: "max_payload: 1024")
        defer { server.cleanUp() }
        let client = try client(server)
        try await client.connect()
        #expect(client.maxPayload == 1024)
        try client.publish([UInt8](repeating: 1, count: 1024), to: "ok")
        do {
            try client.publish([UInt8](repeating: 1, count: 1025), to: "too.big")
            Issue.record("an oversized publish was accepted")
        } catch {
            #expect(error.code == .maxPayloadExceeded)
        }
        try await client.flush()
        #expect(client.isConnected)
        await client.close()
    }

    @Test func drainDeliversEverythingThenEnds() async throws {
        let server = try await NATSServerProcess()
        defer { server.cleanUp() }
        let consumer = try client(server)
        try await consumer.connect()
        let producer = try client(server)
        try await producer.connect()
        let subscription = try consumer.subscribe(to: "drain.me")
        try await consumer.flush()
        for index in 0..<500 { try producer.publish("\(index)", to: "drain.me") }
        try await producer.flush()
        let counter = Task {
            var count = 0
            for await _ in subscription { count += 1 }
            return count
        }
        try await consumer.drain(timeout: .seconds(5))
        #expect(await counter.value == 500)
        #expect(!consumer.isConnected)
        await producer.close()
    }

    @Test func subscriptionDrainKeepsTheConnection() async throws {
        let server = try await NATSServerProcess()
        defer { server.cleanUp() }
        let consumer = try client(server)
        try await consumer.connect()
        let producer = try client(server)
        try await producer.connect()
        let subscription = try consumer.subscribe(to: "drain.sub")
        try await consumer.flush()
        for index in 0..<300 { try producer.publish("\(index)", to: "drain.sub") }
        try await producer.flush()
        let counter = Task {
            var count = 0
            for await _ in subscription { count += 1 }
            return count
        }
        try await subscription.drain(timeout: .seconds(5))
        #expect(await counter.value == 300)
        #expect(consumer.isConnected)
        try await consumer.flush()
        await consumer.close()
        await producer.close()
    }

    @Test func slowConsumerDropsAreCountedAndReported() async throws {
        let server = try await NATSServerProcess()
        defer { server.cleanUp() }
        let client = try client(server)
        try await client.connect()
        let subscription = try client.subscribe(to: "firehose", pendingLimit: 10)
        try await client.flush()
        let reported = Task {
            try await firstEvent(client) { if case .error(let e) = $0 { e.code == .slowConsumer } else { false } }
        }
        for index in 0..<1000 { try client.publish("\(index)", to: "firehose") }
        try await client.flush()
        let event = try await reported.value
        guard case .error(let error) = event else { return }
        #expect(error.code == .slowConsumer)
        #expect(subscription.droppedMessages == 990)
        // The oldest ten were kept.
        let kept = try await collect(subscription, count: 10)
        #expect(kept.map(\.payloadString) == (0..<10).map(String.init))
        await client.close()
    }

    @Test func invalidSubjectsAreRejectedLocally() async throws {
        let server = try await NATSServerProcess()
        defer { server.cleanUp() }
        let client = try client(server)
        try await client.connect()
        #expect(throws: NATSError.self) { try client.publish("x", to: "has space") }
        #expect(throws: NATSError.self) { try client.subscribe(to: "a..b") }
        #expect(throws: NATSError.self) { try client.subscribe(to: "a.>.b") }
        #expect(throws: NATSError.self) { try client.subscribe(to: "ok", queue: "bad queue") }
        await client.close()
    }
}
