// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// Helpers for the core's tests against FakeNATSServer: a client configured for quick failures on the server's
// in-memory channels, and a connected pair.

import NIOCore

@testable import NATSClient

enum FakeServerSupport {
    /// A configuration for `url`, with short timeouts and reconnects so a test never waits long.
    static func configuration(
        url: String,
        _ adjust: (inout NATSClient.Configuration) -> Void = { _ in }
    ) -> NATSClient.Configuration {
        var configuration = NATSClient.Configuration(servers: [url], name: "core-test")
        configuration.connectTimeout = .seconds(2)
        configuration.reconnect = NATSReconnectPolicy(
            maxAttemptsPerServer: 50, wait: .milliseconds(20), jitter: .zero)
        adjust(&configuration)
        return configuration
    }

    /// A client of `server` (see ``configuration(url:_:)``) whose connections are the server's in-memory channels,
    /// on the server's event loop.
    static func client(
        _ server: FakeNATSServer,
        _ adjust: (inout NATSClient.Configuration) -> Void = { _ in }
    ) throws -> NATSClient {
        var configuration = configuration(url: server.url, adjust)
        configuration.connector = server.connector
        return try NATSClient(configuration: configuration, eventLoopGroup: server.eventLoop)
    }

    /// A client connected to a fresh fake server, the server's side of the connection, and the CONNECT JSON.
    static func connected(
        _ adjust: (inout NATSClient.Configuration) -> Void = { _ in }
    ) async throws -> (FakeNATSServer, NATSClient, FakeNATSConnection, String) {
        let (server, client, connection, json, _) = try await connectedObservingEvents(adjust)
        return (server, client, connection, json)
    }

    /// ``connected(_:)`` plus an iterator over the client's events made before it connected, for a test that expects
    /// an event the client reports on its own later (a stale connection's disconnect).
    static func connectedObservingEvents(
        _ adjust: (inout NATSClient.Configuration) -> Void = { _ in }
    ) async throws -> (FakeNATSServer, NATSClient, FakeNATSConnection, String, AsyncStream<NATSEvent>.Iterator) {
        let server = FakeNATSServer()
        let client = try client(server, adjust)
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
