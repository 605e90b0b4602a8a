// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import NATSClient
import NIOCore
import Testing
import VettIDTestSupport

/// A replicated (R3) stream on a three-node JetStream cluster of real nats-servers, through the loss and return of
/// the stream's leader.
///
/// Nothing here is timed: an election takes seconds (more on a loaded machine), so every step that needs the cluster
/// retries until it succeeds or 90 s pass, and only then fails. Publishes are retried with their `Nats-Msg-Id`, so a
/// publish that timed out after it was stored is not stored twice.
@Suite(.enabled(if: NATSServerProcess.isAvailable, "nats-server is not installed: JetStream integration tests skipped"))
struct JetStreamClusterIntegrationTests {
    /// How long a step that depends on the cluster (an election, a catch-up) may take.
    private static let patience = Duration.seconds(90)

    /// Calls `body` until it succeeds or ``patience`` passes; the last error is rethrown.
    private func retrying<T>(_ what: String, _ body: () async throws -> T) async throws -> T {
        let deadline = ContinuousClock.now + Self.patience
        while true {
            do {
                return try await body()
            } catch {
                if ContinuousClock.now >= deadline {
                    Issue.record("\(what) did not succeed within \(Self.patience): \(error)")
                    throw error
                }
                try await Task.sleep(for: .milliseconds(250))
            }
        }
    }

    @Test func anR3StreamLosesNothingAndRepeatsNothingWhenItsLeaderStopsAndReturns() async throws {
        let cluster = try await NATSCluster(size: 3, jetStream: true)
        defer { cluster.cleanUp() }
        let client = try NATSClient(
            configuration: .init(
                servers: cluster.urls, name: "cluster",
                reconnect: NATSReconnectPolicy(
                    maxAttemptsPerServer: nil, wait: .milliseconds(100), jitter: .milliseconds(20))))
        try await client.connect()
        defer { Task { await client.close() } }
        let jetStream = client.jetStream(timeout: .seconds(10))

        // The meta group elects a leader first; until every peer is known, an R3 stream has no room.
        _ = try await retrying("JetStream in the cluster") { try await jetStream.accountInfo() }
        let created = try await retrying("creating the R3 stream") {
            try await jetStream.createStream(
                .init(
                    name: "ORDERS", subjects: ["orders.>"], storage: .file, duplicateWindow: .seconds(600),
                    replicas: 3))
        }
        #expect(created.configuration.replicas == 3)
        _ = try await retrying("creating the consumer") {
            try await jetStream.createConsumer(
                .init(durableName: "worker", ackWait: .seconds(120), maxAckPending: 1000), on: "ORDERS")
        }

        var stored: [String: UInt64] = [:]  // Nats-Msg-Id -> sequence, from the PubAcks
        func publish(_ range: ClosedRange<Int>) async throws {
            for index in range {
                let id = "order-\(index)"
                let ack = try await retrying("publishing \(id)") {
                    try await jetStream.publish(
                        "o\(index)", to: "orders.new", messageID: id, headers: NATSHeaders([("Order", "\(index)")]))
                }
                // A retry of a publish stored before its answer was lost is a duplicate of the same sequence.
                if let earlier = stored[id] { #expect(earlier == ack.sequence) }
                stored[id] = ack.sequence
            }
        }

        var deliveries: [UInt64: [String]] = [:]  // sequence -> the Nats-Msg-Id of each delivery
        var acked: [UInt64: Int] = [:]  // sequence -> acks the server confirmed
        func fetchAndAck(until total: Int) async throws {
            try await retrying("fetching up to \(total) messages") {
                while acked.count < total {
                    let messages = try await jetStream.fetch(
                        batch: 20, from: "worker", on: "ORDERS", expires: .seconds(5))
                    for message in messages {
                        let sequence = message.metadata.streamSequence
                        deliveries[sequence, default: []].append(
                            message.headers?[JetStreamContext.messageIDHeader] ?? "")
                        #expect("o" + (message.headers?["Order"] ?? "") == String(buffer: message.payload))
                        try await retrying("acknowledging \(sequence)") { try await message.ackAcknowledged() }
                        acked[sequence, default: 0] += 1
                    }
                }
            }
        }

        try await publish(1...30)
        try await fetchAndAck(until: 30)

        // Stop the stream's leader (by server_name) once the acks are in its consumer's state.
        let leader = try await retrying("a stream leader") {
            guard let leader = try await jetStream.streamInfo("ORDERS").cluster?.leader else {
                throw NATSServerProcess.SkipError("no stream leader yet")
            }
            return leader
        }
        #expect(cluster.names.contains(leader))
        #expect(
            await eventually(timeout: Self.patience) {
                (try? await jetStream.consumerInfo("worker", on: "ORDERS"))?.ackFloor.streamSequence == 30
            })
        cluster.stop(leader)

        // Two nodes are a majority of three: publishing and fetching go on through them once one is elected.
        try await publish(31...60)
        try await fetchAndAck(until: 60)
        let newLeader = try await jetStream.streamInfo("ORDERS").cluster?.leader
        #expect(newLeader != nil && newLeader != leader)

        try await cluster.restart(leader)
        // The returning node catches up: the leader sees every replica current again.
        #expect(
            await eventually(timeout: Self.patience, poll: .milliseconds(250)) {
                guard let cluster = try? await jetStream.streamInfo("ORDERS").cluster, cluster.leader != nil else {
                    return false
                }
                return cluster.replicas.count == 2 && cluster.replicas.allSatisfy { $0.current && !$0.offline }
            })
        try await publish(61...90)
        try await fetchAndAck(until: 90)

        // Each message stored once, under the sequence its PubAck named, ...
        #expect(stored.count == 90)
        #expect(Set(stored.values) == Set(1...90))
        for index in 1...90 { #expect(stored["order-\(index)"] == UInt64(index)) }
        // ... delivered once (by sequence and by Nats-Msg-Id) and acknowledged once.
        #expect(deliveries.keys.sorted() == Array(1...90))
        for (sequence, ids) in deliveries { #expect(ids == ["order-\(sequence)"], "sequence \(sequence)") }
        #expect(acked.values.allSatisfy { $0 == 1 })
        let state = try await jetStream.streamInfo("ORDERS").state
        #expect(state.messages == 90)
        #expect(state.lastSequence == 90)
        let consumer = try await jetStream.consumerInfo("worker", on: "ORDERS")
        #expect(consumer.pending == 0)
        #expect(consumer.ackPending == 0)
        #expect(consumer.redelivered == 0)
    }
}
