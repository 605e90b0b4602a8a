// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// Back-pressure against a scripted server that stops reading, on in-memory channels (FakeReadPauseHandler plays
// the socket): `publish` refuses at once when the outbound buffer is full, `send` waits for room and keeps its
// place, nothing is lost or reordered.

import NIOCore
import Testing
import VettIDTestSupport

@testable import NATSClient

@Suite struct NATSCoreBackPressureTests {
    static let payload = String(repeating: "x", count: 16 * 1024)
    /// As large as the publishes that filled the buffer, so it cannot slip into the room they left.
    static let last = "after the wait" + String(repeating: "-", count: 16 * 1024)

    /// Publishes until the buffer is full while the socket takes nothing more (the server does not read), a
    /// state that lasts; returns how many were accepted.
    private func fill(_ client: NATSClient) async throws -> Int {
        var accepted = 0
        while accepted < 20_000 {
            let result = Result { () throws(NATSError) in try client.publish(Self.payload, to: "bulk") }
            switch result {
            case .success:
                accepted += 1
                if accepted % 32 == 0 { await Task.yield() }
            case .failure(let error):
                guard error.code == .bufferFull else { throw error }
                // Full for the moment, or for good: only once the channel stopped taking writes is it for good.
                if client.outboundIsBackedUp { return accepted }
                try await Task.sleep(for: .milliseconds(5))
            }
        }
        Issue.record("the buffer never backed up (\(accepted) publishes of 16 KiB accepted)")
        return accepted
    }

    /// A client with a 64 KiB outbound limit whose server has stopped reading, filled until the buffer is full
    /// for good; also returns how many publishes were accepted.
    private func backedUp() async throws -> (FakeNATSServer, NATSClient, FakeNATSConnection, accepted: Int) {
        let (server, client, connection, _) = try await FakeServerSupport.connected {
            $0.maxPendingOutboundBytes = 64 * 1024
        }
        try await connection.pauseReading()
        return (server, client, connection, try await fill(client))
    }

    /// Starts a `send` of ``last`` and returns once it waits for room.
    private func waitingSend(_ client: NATSClient) async -> Task<Void, any Error> {
        let sending = Task { try await client.send(Self.last, to: "bulk") }
        #expect(await eventually { client.waitingSends == 1 })
        return sending
    }

    @Test func sendWaitsForRoomKeepsItsPlaceAndNothingIsLost() async throws {
        let (server, client, connection, accepted) = try await backedUp()
        defer {
            Task {
                await client.close(); await server.stop()
            }
        }
        let sending = await waitingSend(client)
        // A publish does not overtake the waiting send.
        let overtaking = #expect(throws: NATSError.self) { try client.publish("overtaker", to: "bulk") }
        #expect(overtaking?.code == .bufferFull)

        try await connection.resumeReading()
        try await sending.value
        #expect(client.waitingSends == 0)
        for index in 0..<accepted {
            let operation = try await connection.next()
            guard operation == .publish(subject: "bulk", replyTo: nil, payload: Self.payload) else {
                Issue.record("publish \(index) of \(accepted) arrived as \(String(describing: operation).prefix(80))")
                return
            }
        }
        #expect(try await connection.next() == .publish(subject: "bulk", replyTo: nil, payload: Self.last))
    }

    @Test func aCancelledSendIsNotSent() async throws {
        let (server, client, connection, accepted) = try await backedUp()
        defer {
            Task {
                await client.close(); await server.stop()
            }
        }
        let sending = await waitingSend(client)
        sending.cancel()
        let error = await #expect(throws: NATSError.self) { try await sending.value }
        #expect(error?.code == .cancelled)
        #expect(client.waitingSends == 0)
        // The buffer drains and the next send goes straight through, after everything accepted before.
        try await connection.resumeReading()
        try await client.send("next", to: "bulk")
        var last: FakeClientOperation?
        for _ in 0...accepted { last = try await connection.next() }
        #expect(last == .publish(subject: "bulk", replyTo: nil, payload: "next"))
    }

    @Test func aRequestWaitingForRoomTimesOutAndIsNotSent() async throws {
        let (server, client, connection, accepted) = try await backedUp()
        defer {
            Task {
                await client.close(); await server.stop()
            }
        }
        let requesting = Task { try await client.request(Self.last, to: "service", timeout: .milliseconds(300)) }
        #expect(await eventually { client.waitingSends == 1 })
        await server.advanceClock(by: .milliseconds(300))
        let error = await #expect(throws: NATSError.self) { _ = try await requesting.value }
        #expect(error?.code == .timeout)
        #expect(client.waitingSends == 0)
        // Once the server reads again, what was accepted arrives (after the inbox subscription), the request not.
        try await connection.resumeReading()
        try await client.send("marker", to: "bulk")
        var operations: [FakeClientOperation] = []
        for _ in 0..<(accepted + 2) { operations.append(try await connection.next()) }
        #expect(operations.last == .publish(subject: "bulk", replyTo: nil, payload: "marker"))
        #expect(!operations.contains { if case .publish("service", _, _) = $0 { true } else { false } })
    }

    @Test func closingFailsAWaitingSend() async throws {
        let (server, client, _, _) = try await backedUp()
        defer { Task { await server.stop() } }
        let sending = await waitingSend(client)
        await client.close()
        let error = await #expect(throws: NATSError.self) { try await sending.value }
        #expect(error?.code == .connectionClosed)
    }

    /// Bulk sends against a server that stopped reading: 2,000 × 16 KiB, 32 MiB, more than the socket's buffers take
    /// and half the default limit, so only a rule other than the limit makes a send wait.
    static let bulkCount = 2_000

    /// A client with the default configuration whose server has stopped reading, and a task sending
    /// ``bulkCount`` numbered messages to it, on the connection's event loop (`onLoop`) or off it.
    private func bulkSends(onLoop: Bool) async throws -> (
        FakeNATSServer, NATSClient, FakeNATSConnection, Task<Void, any Error>
    ) {
        let (server, client, connection, _) = try await FakeServerSupport.connected()
        try await connection.pauseReading()
        let send = { @Sendable in
            for index in 0..<Self.bulkCount { try await client.send("\(index) " + Self.payload, to: "bulk") }
        }
        let publisher =
            onLoop ? Task(executorPreference: client.taskExecutor, operation: send) : Task.detached(operation: send)
        return (server, client, connection, publisher)
    }

    /// Reads the bulk sends, expecting them in order; `beside` is a publish that may arrive between them once.
    /// Returns whether it did.
    private func readBulkSends(
        _ connection: FakeNATSConnection, beside: FakeClientOperation? = nil
    ) async throws -> Bool {
        var next = 0
        var sawBeside = false
        while next < Self.bulkCount {
            let operation = try await connection.next()
            if let beside, operation == beside, !sawBeside {
                sawBeside = true
                continue
            }
            guard operation == .publish(subject: "bulk", replyTo: nil, payload: "\(next) " + Self.payload) else {
                Issue.record("send \(next) arrived as \(String(describing: operation).prefix(80))")
                return sawBeside
            }
            next += 1
        }
        return sawBeside
    }

    /// A publisher on the connection's event loop writes each chunk as it fills and, while the socket is backed
    /// up, waits with about one chunk queued instead of filling the limit (its task holds the loop, so nothing
    /// would drain the buffer before it stopped); once the server reads again, everything arrives in order.
    @Test func aSendOnTheTaskExecutorWaitsWhileTheSocketIsBackedUp() async throws {
        let (server, client, connection, publisher) = try await bulkSends(onLoop: true)
        defer {
            Task {
                await client.close(); await server.stop()
            }
        }
        #expect(await eventually { client.waitingSends == 1 })
        #expect(client.pendingOutboundBytes <= NATSOutboundBuffer.chunkSize + 17 * 1024)
        try await connection.resumeReading()
        try await publisher.value
        _ = try await readBulkSends(connection)
    }

    /// A publisher off the event loop waits once about ``NATSConnectionCore/sendWindow`` bytes are unwritten, far
    /// below the 64 MiB limit, as a publisher blocks on a full socket in nats.c; a `publish` meanwhile is not
    /// refused (the waiting send needs no room it would take); once the server reads again, everything arrives,
    /// the sends in order.
    @Test func aSendOffTheEventLoopWaitsForTheSocketWithinTheWindow() async throws {
        let (server, client, connection, publisher) = try await bulkSends(onLoop: false)
        defer {
            Task {
                await client.close(); await server.stop()
            }
        }
        // Waiting with more than half the window unwritten (at half, waiting sends go on), never more than all of it.
        #expect(
            await eventually {
                client.waitingSends == 1 && client.unwrittenOutboundBytes > NATSConnectionCore.sendWindow / 2
            })
        #expect(client.unwrittenOutboundBytes <= NATSConnectionCore.sendWindow)
        try client.publish("beside the waiting send", to: "other")
        try await connection.resumeReading()
        try await publisher.value
        let beside = FakeClientOperation.publish(subject: "other", replyTo: nil, payload: "beside the waiting send")
        #expect(try await readBulkSends(connection, beside: beside))
    }

    @Test func whileDisconnectedASendWaitsForTheNextConnection() async throws {
        let (server, client, connection, _) = try await FakeServerSupport.connected {
            $0.reconnectBufferSize = 30  // "PUB q 10\r\nfirst fits\r\n" is 22 bytes
        }
        defer {
            Task {
                await client.close(); await server.stop()
            }
        }
        await connection.close()
        #expect(await eventually { !client.isConnected })
        try await client.send("first fits", to: "q")
        let sending = Task { try await client.send("second waits", to: "q") }
        #expect(await eventually { client.waitingSends == 1 })
        await server.advanceClock(by: .milliseconds(20))  // the reconnect wait
        let second = try await server.nextConnection()
        _ = try await second.acceptHandshake()
        try await sending.value
        #expect(try await second.next() == .publish(subject: "q", replyTo: nil, payload: "first fits"))
        #expect(try await second.next() == .publish(subject: "q", replyTo: nil, payload: "second waits"))
    }
}
