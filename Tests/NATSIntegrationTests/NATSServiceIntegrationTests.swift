// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Logging
import NATSClient
import NIOCore
import ServiceLifecycle
import Testing
import VettIDTestSupport

@Suite(.enabled(if: NATSServerProcess.isAvailable, "nats-server is not installed: NATS integration tests skipped"))
struct NATSServiceIntegrationTests {
    @Test func severalEventConsumersEachSeeTheLifecycle() async throws {
        let server = try await NATSServerProcess()
        defer { server.cleanUp() }
        let client = try NATSClient(configuration: .init(servers: [server.url]))
        let first = client.makeEventStream()
        let second = client.makeEventStream(bufferSize: 8)
        try await client.connect()
        await client.close()
        var firstEvents: [NATSEvent] = []
        for await event in first { firstEvents.append(event) }
        var secondEvents: [NATSEvent] = []
        for await event in second { secondEvents.append(event) }
        var primary: [NATSEvent] = []
        for await event in client.events { primary.append(event) }
        #expect(firstEvents.first == .connected(server: server.url))
        #expect(firstEvents.last == .closed(nil))
        #expect(secondEvents == firstEvents)
        #expect(primary == firstEvents)
    }

    @Test func runConnectsAndEndsWhenTheTaskIsCancelled() async throws {
        let server = try await NATSServerProcess()
        defer { server.cleanUp() }
        let client = try NATSClient(configuration: .init(servers: [server.url]))
        let events = client.makeEventStream()
        let running = Task { try await client.run() }
        for await event in events {
            if case .connected = event { break }
        }
        #expect(client.isConnected)
        running.cancel()
        try await running.value
        #expect(!client.isConnected)
        #expect(throws: NATSError.self) { try client.publish("late", to: "x") }
    }

    @Test func runReturnsWhenTheClientIsClosedAndThrowsTheFatalError() async throws {
        let server = try await NATSServerProcess()
        defer { server.cleanUp() }
        let client = try NATSClient(configuration: .init(servers: [server.url]))
        try await client.connect()
        let running = Task { try await client.run() }
        try await client.flush()
        await client.close()
        try await running.value

        let other = try await NATSServerProcess()
        defer { other.cleanUp() }
        var configuration = NATSClient.Configuration(servers: [other.url])
        configuration.reconnect = .disabled
        let fragile = try NATSClient(configuration: configuration)
        try await fragile.connect()
        let runningFragile = Task { try await fragile.run() }
        other.stop()  // the server goes away and reconnecting is off: the client closes with an error
        await #expect(throws: NATSError.self) { try await runningFragile.value }
    }

    @Test func aServiceGroupShutdownDrainsTheClient() async throws {
        let server = try await NATSServerProcess()
        defer { server.cleanUp() }
        let client = try NATSClient(configuration: .init(servers: [server.url]))
        let observer = try NATSClient(configuration: .init(servers: [server.url]))
        try await observer.connect()
        let received = try observer.subscribe(to: "drained")
        try await observer.flush()

        let group = ServiceGroup(
            configuration: .init(
                services: [client], logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        )
        // Observed before the group starts the client: a stream made afterwards could miss `.connected`.
        let events = client.makeEventStream()
        let running = Task { try await group.run() }
        for await event in events {
            if case .connected = event { break }
        }
        for index in 0..<100 { try client.publish("m\(index)", to: "drained") }
        await group.triggerGracefulShutdown()
        try await running.value
        #expect(!client.isConnected)
        // Drain flushed every publish before closing.
        let messages = try await collect(received, count: 100)
        #expect(messages.last?.payloadString == "m99")
        await observer.close()
    }
}
