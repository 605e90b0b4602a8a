// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// The connection core's handshake, keepalive and authentication errors, against a scripted server on in-memory
// channels (no nats-server, no socket); the client's clock moves when the test moves it.

import Foundation
import NATSClient
import NIOCore
import Testing

@Suite struct NATSCoreHandshakeTests {
    @Test func connectSendsConnectAndPingAndSucceedsOnPong() async throws {
        let (server, client, _, json) = try await FakeServerSupport.connected { $0.auth = .token("s3cret-token") }
        defer {
            Task {
                await client.close(); await server.stop()
            }
        }
        let options = try #require(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(options["name"] as? String == "core-test")
        #expect(options["verbose"] as? Bool == false)
        #expect(options["headers"] as? Bool == true)
        #expect(options["no_responders"] as? Bool == true)
        #expect(options["auth_token"] as? String == "s3cret-token")
        #expect(client.isConnected)
        #expect(client.serverInfo?.serverID == "FAKE")
    }

    @Test func aServerThatNeverAnswersThePingTimesTheHandshakeOut() async throws {
        let server = FakeNATSServer()
        defer { Task { await server.stop() } }
        let client = try FakeServerSupport.client(server) {
            $0.connectTimeout = .milliseconds(300)
            $0.reconnect = .disabled
        }
        let connecting = Task { try await client.connect() }
        let connection = try await server.nextConnection()
        guard case .connect = try await connection.next() else {
            Issue.record("expected CONNECT")
            return
        }
        await server.advanceClock(by: .milliseconds(300))
        let error = await #expect(throws: NATSError.self) { try await connecting.value }
        #expect(error?.code == .timeout)
        await connection.waitUntilClosed()
    }

    @Test func authorizationViolationFailsConnectAndIsNotRetried() async throws {
        let server = FakeNATSServer()
        defer { Task { await server.stop() } }
        let client = try FakeServerSupport.client(server)
        let connecting = Task { try await client.connect() }
        let connection = try await server.nextConnection()
        guard case .connect = try await connection.next() else {
            Issue.record("expected CONNECT")
            return
        }
        try await connection.send("-ERR 'Authorization Violation'\r\n")
        let error = await #expect(throws: NATSError.self) { try await connecting.value }
        #expect(error?.code == .authorizationViolation)
        await connection.waitUntilClosed()
        // Fatal: no second connection within several reconnect waits (20 ms each).
        await server.advanceClock(by: .milliseconds(500))
        await #expect(throws: FakeTimeout.self) { _ = try await server.nextConnection(timeout: .milliseconds(100)) }
    }

    @Test func theClientAnswersTheServersPing() async throws {
        let (server, client, connection, _) = try await FakeServerSupport.connected()
        defer {
            Task {
                await client.close(); await server.stop()
            }
        }
        try await connection.send("PING\r\n")
        #expect(try await connection.next() == .pong)
    }

    @Test func unansweredPingsMakeTheConnectionStaleAndTheClientReconnects() async throws {
        // The events are observed from before the handshake, so none of them can be missed.
        let (server, client, connection, _, observed) = try await FakeServerSupport.connectedObservingEvents {
            $0.pingInterval = .milliseconds(100)
            $0.maxPingsOut = 2
        }
        defer {
            Task {
                await client.close(); await server.stop()
            }
        }
        var events = observed
        // The server never answers: two pings go out, the third timer tick finds both outstanding.
        await server.advanceClock(by: .milliseconds(100))
        #expect(try await connection.next() == .ping)
        await server.advanceClock(by: .milliseconds(100))
        #expect(try await connection.next() == .ping)
        await server.advanceClock(by: .milliseconds(100))
        let disconnected = await events.first { if case .disconnected = $0 { true } else { false } }
        guard case .disconnected(let reason) = disconnected else {
            Issue.record("no disconnected event")
            return
        }
        #expect(reason?.code == .staleConnection)
        await connection.waitUntilClosed()
        await server.advanceClock(by: .milliseconds(20))  // the reconnect wait
        let second = try await server.nextConnection()
        _ = try await second.acceptHandshake()
        let reconnected = await events.first { if case .reconnected = $0 { true } else { false } }
        #expect(reconnected != nil)
        #expect(client.statistics.reconnects == 1)
    }
}
