// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// Helpers for the core's tests against FakeNATSServer: a client configured for quick failures, and a
// connected pair.

import NATSClient
import NIOCore

enum FakeServerSupport {
    /// A configuration pointing at `server`, with short timeouts and reconnects so a test never waits long.
    static func configuration(
        _ server: FakeNATSServer,
        _ adjust: (inout NATSClient.Configuration) -> Void = { _ in }
    ) -> NATSClient.Configuration {
        var configuration = NATSClient.Configuration(servers: [server.url], name: "core-test")
        configuration.connectTimeout = .seconds(2)
        configuration.reconnect = NATSReconnectPolicy(
            maxAttemptsPerServer: 50, wait: .milliseconds(20), jitter: .zero)
        adjust(&configuration)
        return configuration
    }

    /// A client connected to a fresh fake server, the server's side of the connection, and the CONNECT JSON.
    static func connected(
        _ adjust: (inout NATSClient.Configuration) -> Void = { _ in }
    ) async throws -> (FakeNATSServer, NATSClient, FakeNATSConnection, String) {
        let (server, client, connection, json, _) = try await connectedObservingEvents(adjust)
        return (server, client, connection, json)
    }

    /// ``connected(_:)`` plus an iterator over the client's events made before it connected. For a test whose event
    /// comes from a timer after the handshake (a stale connection's disconnect): a stream made after `connected`
    /// returns can be made too late on a loaded machine, and then misses it.
    static func connectedObservingEvents(
        _ adjust: (inout NATSClient.Configuration) -> Void = { _ in }
    ) async throws -> (FakeNATSServer, NATSClient, FakeNATSConnection, String, AsyncStream<NATSEvent>.Iterator) {
        let server = try await FakeNATSServer.start()
        let client = try NATSClient(configuration: configuration(server, adjust))
        let events = client.makeEventStream().makeAsyncIterator()
        async let connecting: Void = client.connect()
        let connection = try await server.nextConnection()
        let json = try await connection.acceptHandshake()
        try await connecting
        return (server, client, connection, json, events)
    }
}

extension AsyncStream<NATSEvent>.Iterator {
    /// The next event that `matches`, skipping others; `nil` if the stream ended first.
    mutating func first(where matches: (NATSEvent) -> Bool) async -> NATSEvent? {
        while let event = await next() {
            if matches(event) { return event }
        }
        return nil
    }
}
