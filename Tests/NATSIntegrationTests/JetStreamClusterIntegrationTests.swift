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
/// publish that timed out after it was stored is not stored twice; the consumer side de-duplicates by the same ID, so
/// a redelivery is not processed twice.
@Suite(.enabled(if: NATSServerProcess.isAvailable, "nats-server is not installed: JetStream integration tests skipped"))
struct JetStreamClusterIntegrationTests {
    /// How long a step that depends on the cluster (an election, a catch-up) may take.
    private static let patience = Duration.seconds(90)

    /// A step of the cluster that has not happened (yet).
    private struct NotYet: Error, CustomStringConvertible {
        let description: String
    }

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
        // An ack wait below the patience: a message the server sent to a pull lost with the stopped server comes again
        // in time.
        _ = try await retrying("creating the consumer") {
            try await jetStream.createConsumer(
                .init(durableName: "worker", ackWait: .seconds(60), maxAckPending: 1000), on: "ORDERS")
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

        // Delivery is at least once: the consumer's state is replicated too, and nats-server 2.9.10 was seen to lose
        // an ack it had confirmed (the message came again after the ack wait, marked redelivered). So the consumer
        // side de-duplicates by Nats-Msg-Id, as an application does: a message is processed on its first delivery,
        // a redelivery of a processed one is acknowledged again and not processed.
        var processed: [String: UInt64] = [:]  // Nats-Msg-Id -> sequence, on the first delivery
        var redeliveries: [(id: String, sequence: UInt64, delivered: UInt64)] = []
        func handle(_ messages: [JetStreamMessage]) async throws {
            for message in messages {
                let sequence = message.metadata.streamSequence
                let id = message.headers?[JetStreamContext.messageIDHeader] ?? ""
                #expect("o" + (message.headers?["Order"] ?? "") == String(buffer: message.payload))
                if processed[id] == nil {
                    processed[id] = sequence
                } else {
                    redeliveries.append((id, sequence, message.metadata.delivered))
                }
                try await retrying("acknowledging \(sequence)") { try await message.ackAcknowledged() }
            }
        }
        // Fetches and acks until `total` messages are processed, and, with `drained`, until the consumer has nothing
        // pending or waiting for an ack; fails after ``patience`` (a failed or empty fetch is retried within it).
        func fetchAndAck(until total: Int, drained: Bool = false) async throws {
            let deadline = ContinuousClock.now + Self.patience
            while true {
                if processed.count >= total {
                    guard drained else { return }
                    let info = try? await jetStream.consumerInfo("worker", on: "ORDERS")
                    if let info, info.pending == 0, info.ackPending == 0 { return }
                }
                guard ContinuousClock.now < deadline else {
                    let consumer = try? await jetStream.consumerInfo("worker", on: "ORDERS")
                    Issue.record(
                        "\(processed.count) of \(total) messages within \(Self.patience); consumer: \(String(describing: consumer))"
                    )
                    throw NotYet(description: "the consumer did not deliver every message")
                }
                do {
                    try await handle(
                        try await jetStream.fetch(batch: 20, from: "worker", on: "ORDERS", expires: .seconds(5)))
                } catch is JetStreamError {
                    try await Task.sleep(for: .milliseconds(250))  // an election: the next pull finds the new leader
                }
            }
        }

        try await publish(1...30)
        try await fetchAndAck(until: 30)

        // Stop the stream's leader (by server_name).
        let leader = try await retrying("a stream leader") {
            guard let leader = try await jetStream.streamInfo("ORDERS").cluster?.leader else {
                throw NotYet(description: "no stream leader yet")
            }
            return leader
        }
        #expect(cluster.names.contains(leader))
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
        try await fetchAndAck(until: 90, drained: true)

        // Each message stored once, under the sequence its PubAck named, ...
        #expect(stored.count == 90)
        #expect(Set(stored.values) == Set(1...90))
        for index in 1...90 { #expect(stored["order-\(index)"] == UInt64(index)) }
        // ... processed once (by Nats-Msg-Id, with the sequence it was stored under), every other delivery a
        // redelivery the server marked as one, ...
        #expect(processed.count == 90)
        for index in 1...90 { #expect(processed["order-\(index)"] == UInt64(index)) }
        for redelivery in redeliveries {
            #expect(redelivery.delivered > 1, "\(redelivery.id) came twice without being marked redelivered")
            #expect(processed[redelivery.id] == redelivery.sequence)
        }
        let state = try await jetStream.streamInfo("ORDERS").state
        #expect(state.messages == 90)
        #expect(state.lastSequence == 90)
        let consumer = try await jetStream.consumerInfo("worker", on: "ORDERS")
        #expect(consumer.pending == 0)
        #expect(consumer.ackPending == 0)
        #expect(consumer.redelivered == 0)
        #expect(consumer.ackFloor.streamSequence == 90)
    }
}
