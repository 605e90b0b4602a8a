// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import BenchSupport
import Crypto
import Foundation
import Logging
import NATSClient
import NIOConcurrencyHelpers
import NIOCore
import VettIDClient
import VettIDCrypto
import VettIDMessaging
import VettIDNats
import VettIDServer

/// The mailbox (docs/protocol.md 7.5): `messages` notices wait for a device that is away; the relay seals and
/// stores them (one `PubAck` each), then the device connects and its SDK catches up.
///
/// The peer is a bare `JetStreamContext` consumer of the same subject on the same nats-server pulling the same stored
/// messages with the same acks (64 per pull, `+ACK`, the last of each pull confirmed) and opening nothing: what the
/// SDK adds on top of the JetStream client is opening each message (HPKE), the intake's decision and the app's
/// handler.
enum MailboxBenchmark {
    struct Result {
        /// Relay: from the first notice posted until every copy is stored (seconds), per round.
        var fill: [Double] = []
        /// The SDK: from `connect()` (stored token, new connection) until the handler has every notice.
        var catchUp: [Double] = []
        /// The bare consumer: from its first pull until it has acknowledged every message.
        var bare: [Double] = []
        /// The bare consumer that also opens each message (HPKE): the floor of any catch-up of sealed messages.
        var bareOpening: [Double] = []
    }

    @MainActor
    static func run(messages: Int, rounds: Int, logger: Logger) async throws -> Result {
        let server = try await BenchDevices.startServer(workers: 1, logger: logger)
        do {
            let result = try await measure(on: server, messages: messages, rounds: rounds, logger: logger)
            await server.stop()
            return result
        } catch {
            // The server's nats-server is a child process: stop it before the error ends this one.
            await server.stop()
            throw error
        }
    }

    @MainActor
    private static func measure(
        on server: LoopbackServer, messages: Int, rounds: Int, logger: Logger
    ) async throws -> Result {
        guard let mailbox = server.components.mailbox else { throw BenchFailure("the server runs without mailboxes") }
        let ready = ContinuousClock.now + .seconds(30)
        while !mailbox.isReady {
            guard ContinuousClock.now < ready else { throw BenchFailure("the mailbox stream was not ready in 30 s") }
            try await Task.sleep(for: .milliseconds(50))
        }
        let device = try await BenchDevices.enroll(on: server, logger: logger)
        let received = NIOLockedValueBox(0)
        let manager = NatsConnectionManager(
            configuration: .init(logger: logger), provider: device.vault,
            store: NatsCredentialStore(store: device.store))
        manager.mailboxHandler = { _ in received.withLockedValue { $0 += 1 } }
        await manager.connect()
        guard let address = await NatsCredentialStore(store: device.store).load()?.mailbox else {
            throw BenchFailure("the device's token names no mailbox")
        }
        await manager.disconnect()
        let key = try await device.vault.mailboxKeys.privateKey()
        guard let userID = UUID(uuidString: device.namespace.userGUID) else { throw BenchFailure("not a member id") }
        let auditor = try await auditor(server)
        let jetStream = auditor.jetStream()
        var result = Result()
        for round in 0..<rounds {
            let bareName = "bench-bare-\(round)"
            for name in [bareName, bareName + "-open"] {
                try await jetStream.createConsumer(
                    ConsumerConfiguration(durableName: name, filterSubject: address.subject, deliverPolicy: .new),
                    on: address.stream)
            }
            // Fill: the device is away.
            let fillStart = ContinuousClock.now
            for index in 0..<messages {
                let notice = MailboxNotice(
                    id: MailboxNotice.newID(), kind: .securityEvent, sentAt: Int64(index),
                    securityEvent: .init(kind: "login", occurredAt: Int64(index), ip: "127.0.0.1", client: "bench"))
                try await mailbox.post(notice, to: userID)
            }
            while try await mailbox.waitingNotices() > 0 { try await Task.sleep(for: .milliseconds(2)) }
            result.fill.append((ContinuousClock.now - fillStart).seconds)
            // The peers, then the SDK (order changes nothing here: all read stored messages).
            result.bare.append(
                try await pull(jetStream, consumer: bareName, address: address, messages: messages, key: nil))
            result.bareOpening.append(
                try await pull(jetStream, consumer: bareName + "-open", address: address, messages: messages, key: key))
            for name in [bareName, bareName + "-open"] { try await jetStream.deleteConsumer(name, on: address.stream) }

            received.withLockedValue { $0 = 0 }
            let start = ContinuousClock.now
            await manager.connect()
            let deadline = start + .seconds(60)
            while received.withLockedValue({ $0 }) < messages {
                guard ContinuousClock.now < deadline else { throw BenchFailure("the SDK's catch-up took over 60 s") }
                try await Task.sleep(for: .microseconds(200))
            }
            result.catchUp.append((ContinuousClock.now - start).seconds)
            await manager.disconnect()
        }
        await auditor.close()
        return result
    }

    /// Pulls `messages` from `consumer` (64 per pull, `+ACK`, the last of each pull confirmed), opening each with
    /// `key` when given; the seconds it took.
    private static func pull(
        _ jetStream: JetStreamContext, consumer: String, address: MailboxAddress, messages: Int,
        key: Curve25519.KeyAgreement.PrivateKey?
    ) async throws -> Double {
        let start = ContinuousClock.now
        var acked = 0
        while acked < messages {
            let batch = try await jetStream.fetch(batch: 64, from: consumer, on: address.stream, noWait: true)
            guard !batch.isEmpty else { throw BenchFailure("\(consumer) found \(acked) of \(messages)") }
            for (index, message) in batch.enumerated() {
                if let key {
                    _ = try MailboxSeal.open(
                        Array(message.payload.readableBytesView), subject: message.subject,
                        messageID: message.headers?["Nats-Msg-Id"] ?? "", privateKey: key)
                }
                if index == batch.count - 1 { _ = try await message.ackAcknowledged() } else { try message.ack() }
            }
            acked += batch.count
        }
        return (ContinuousClock.now - start).seconds
    }

    /// A user of the application account with the whole JetStream API (the benchmark's bare consumer).
    private static func auditor(_ server: LoopbackServer) async throws -> NATSClient {
        guard let nats = server.nats else { throw BenchFailure("the server runs without nats-server") }
        let user = try server.components.natsTrust.userCredentials(
            name: "bench-bare",
            permissions: NatsPermissionSet(publish: ["$JS.API.>", "$JS.ACK.>"], subscribe: ["_BENCH.>"]),
            issuedAt: Int64(Date().timeIntervalSince1970), expiresAt: nil)
        let client = try NATSClient(
            configuration: .init(servers: [nats.url], auth: .jwt(user.jwt, seed: user.seed), inboxPrefix: "_BENCH"))
        try await client.connect()
        return client
    }
}
