// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import NATSClient
import NIOCore
import Testing
import VettIDTestSupport

@Suite(.enabled(if: NATSServerProcess.isAvailable, "nats-server is not installed: NATS integration tests skipped"))
struct NATSClusterIntegrationTests {
    @Test func discoversTheSecondServerAndFailsOverToIt() async throws {
        let cluster = try await NATSCluster(size: 2)
        defer { cluster.cleanUp() }
        let (serverA, serverB) = (cluster.nodes[0], cluster.nodes[1])

        let client = try NATSClient(
            configuration: NATSClient.Configuration(
                servers: [serverA.url],
                reconnect: NATSReconnectPolicy(wait: .milliseconds(100), jitter: .milliseconds(10))
            )
        )
        let events = Task {
            var discovered: [String] = []
            for await event in client.events {
                switch event {
                case .discoveredServers(let urls): discovered += urls
                case .reconnected(let server): return (discovered, server)
                default: break
                }
            }
            return (discovered, "")
        }
        try await client.connect()
        // The route forms asynchronously; the server then sends an async INFO with both client URLs.
        let serverBURL = "nats://127.0.0.1:\(serverB.port)"
        #expect(await eventually(poll: .milliseconds(50)) { client.knownServers.contains(serverBURL) })

        let subscription = try client.subscribe(to: "failover")
        try await client.flush()
        serverA.stop()

        let (discovered, reconnectedTo) = try await withThrowingTaskGroup(of: ([String], String)?.self) { group in
            group.addTask { await events.value }
            group.addTask {
                try await Task.sleep(for: .seconds(10))
                return nil
            }
            let first = try await group.next() ?? nil
            group.cancelAll()
            return try #require(first, "no failover within 10 s")
        }
        // Discovery events fire for async INFO updates only (as in nats.go); if the route formed before we
        // connected, the first INFO already listed server B and it joined the pool silently.
        #expect(discovered.allSatisfy { $0.hasPrefix("nats://") })
        #expect(reconnectedTo == serverBURL)

        // The subscription was re-sent to the second server.
        try await client.flush()
        try client.publish("still here", to: "failover")
        let messages = try await collect(subscription, count: 1)
        #expect(messages.first?.payloadString == "still here")
        await client.close()
    }
}
