// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import NATSClient
import NIOCore
import Testing
import VettIDTestSupport

@Suite(.enabled(if: NATSServerProcess.isAvailable, "nats-server is not installed: NATS integration tests skipped"))
struct NATSResilienceIntegrationTests {
    @Test func serverRestartMidStreamKeepsSubscriptionsAndBufferedPublishes() async throws {
        let server = try await NATSServerProcess()
        defer { server.cleanUp() }
        let client = try NATSClient(
            configuration: NATSClient.Configuration(
                servers: [server.url],
                reconnect: NATSReconnectPolicy(
                    maxAttemptsPerServer: nil, wait: .milliseconds(100), jitter: .milliseconds(20))
            )
        )
        let events = Task {
            var seen: [NATSEvent] = []
            for await event in client.events {
                seen.append(event)
                if case .reconnected = event { break }
            }
            return seen
        }
        try await client.connect()
        let plain = try client.subscribe(to: "stream.>")
        let queued = try client.subscribe(to: "work", queue: "q")
        let limited = try client.subscribe(to: "limited")
        limited.unsubscribe(after: 3)
        try await client.flush()
        try client.publish("before", to: "stream.a")
        try client.publish("l1", to: "limited")
        try await client.flush()

        server.stop()
        // Wait until the client notices, then publish into the reconnect buffer.
        #expect(await eventually(timeout: .seconds(5)) { !client.isConnected })
        try client.publish("during", to: "stream.b")

        let restarted = try await server.restarted()
        defer { restarted.cleanUp() }
        let seen = try await withThrowingTaskGroup(of: [NATSEvent]?.self) { group in
            group.addTask { await events.value }
            group.addTask {
                try await Task.sleep(for: .seconds(10))
                return nil
            }
            let first = try await group.next() ?? nil
            group.cancelAll()
            return try #require(first, "no reconnect within 10 s")
        }
        #expect(seen.contains { if case .disconnected = $0 { true } else { false } })
        #expect(client.statistics.reconnects == 1)

        try await client.flush()
        try client.publish("after", to: "stream.c")
        try client.publish("job", to: "work")
        for index in 2...5 { try client.publish("l\(index)", to: "limited") }
        try await client.flush()

        let streamed = try await collect(plain, count: 3)
        #expect(streamed.map(\.payloadString) == ["before", "during", "after"])
        let jobs = try await collect(queued, count: 1)
        #expect(jobs.first?.payloadString == "job")
        // Auto-unsubscribe continued across the restart: 1 before + 2 after = 3, then the sequence ends.
        var limitedMessages: [String] = []
        for await message in limited { limitedMessages.append(message.payloadString) }
        #expect(limitedMessages == ["l1", "l2", "l3"])
        await client.close()
    }

    @Test func lameDuckModeIsReported() async throws {
        let server = try await NATSServerProcess(configuration: "lame_duck_grace_period: 1s\nlame_duck_duration: 30s")
        defer { server.cleanUp() }
        let client = try NATSClient(
            configuration: NATSClient.Configuration(servers: [server.url], reconnect: .disabled))
        try await client.connect()
        let lameDuck = Task { try await firstEvent(client, timeout: .seconds(8)) { $0 == .lameDuckMode } }
        try await Task.sleep(for: .milliseconds(100))
        server.enterLameDuckMode()
        #expect(try await lameDuck.value == .lameDuckMode)
        await client.close()
    }

    @Test func reconnectBufferOverflowIsAnError() async throws {
        let server = try await NATSServerProcess()
        defer { server.cleanUp() }
        let client = try NATSClient(
            configuration: NATSClient.Configuration(
                servers: [server.url],
                reconnect: NATSReconnectPolicy(maxAttemptsPerServer: nil, wait: .seconds(30)),
                reconnectBufferSize: 1024
            )
        )
        try await client.connect()
        server.stop()
        #expect(await eventually(timeout: .seconds(5)) { !client.isConnected })
        try client.publish([UInt8](repeating: 0, count: 500), to: "x")
        do {
            try client.publish([UInt8](repeating: 0, count: 600), to: "x")
            Issue.record("a publish beyond the reconnect buffer was accepted")
        } catch {
            #expect(error.code == .bufferFull)
        }
        await client.close()
    }

    @Test func initialConnectFailureIsReported() async throws {
        let port = try LoopbackPort.reserve()
        let client = try NATSClient(configuration: NATSClient.Configuration(servers: ["nats://127.0.0.1:\(port)"]))
        do {
            try await client.connect()
            Issue.record("connected to a closed port")
        } catch let error as NATSError {
            #expect(error.code == .noServers)
        }
    }
}
