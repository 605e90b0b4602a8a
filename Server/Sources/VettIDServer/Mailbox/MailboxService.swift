// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation
import Logging
import NATSClient
import NIOConcurrencyHelpers
import NIOCore
public import ServiceLifecycle
import VettIDCore
import VettIDCrypto
public import VettIDMessaging

/// The members' mailboxes in JetStream (docs/protocol.md 7.5): the stream, one durable pull consumer per device,
/// and the relay that publishes the outbox's notices sealed to each device.
///
/// Its own NATS connection, as a user of the application account with `NatsPermissionSet.mailboxRelay` (minted
/// per connect, like the workers'). A nats-server without JetStream (or an account without JetStream limits)
/// leaves the mailboxes off: the server logs it and issues tokens without one.
public final class MailboxService: Service, Sendable {
    let configuration: NATSConfiguration
    let store: any SQLStore
    let clock: any WallClock
    let logger: Logger
    let client: NATSClient
    let jetStream: JetStreamContext
    let repository = MailboxRepository()
    /// Wakes devices whose app is away after their mailbox got a message; `nil` without APNs.
    let push: PushService?
    /// Whether the stream exists as configured (set on every connect).
    private let streamReady = NIOLockedValueBox(false)
    private let metrics: ServerMetrics?

    init(
        url: String, configuration: NATSConfiguration, trust: NATSTrust, store: any SQLStore, clock: any WallClock,
        push: PushService? = nil, metrics: ServerMetrics?, logger: Logger
    ) throws {
        self.configuration = configuration
        self.push = push
        self.store = store
        self.clock = clock
        self.logger = logger
        self.metrics = metrics
        let signer = NATSCredentialSigner {
            let user = try trust.userCredentials(
                name: "mailbox-relay", permissions: .mailboxRelay, issuedAt: Int64(Date().timeIntervalSince1970),
                expiresAt: nil)
            return (user.jwt, user.seed)
        }
        client = try NATSClient(
            configuration: NATSClient.Configuration(
                servers: [url], name: "vettid-server mailbox relay", auth: signer.auth, requestTimeout: .seconds(5),
                inboxPrefix: NatsPermissionSet.mailboxRelayInboxPrefix,
                reconnect: NATSReconnectPolicy(maxAttemptsPerServer: nil, wait: .seconds(1)),
                retryOnFailedConnect: true, tls: NATSTLSConfiguration(rootCertificatesPath: configuration.caFile),
                logger: logger))
        jetStream = client.jetStream()
    }

    /// The mailbox stream's configuration.
    var streamConfiguration: StreamConfiguration {
        StreamConfiguration(
            name: MailboxAddress.streamName, subjects: [MailboxAddress.streamSubjects], storage: .file,
            retention: .limits, maxAge: configuration.mailboxMaxAge,
            maxMessagesPerSubject: configuration.mailboxMaxPerDevice, maxMessageSize: 16_384,
            duplicateWindow: .seconds(120), replicas: configuration.mailboxReplicas, discard: .old)
    }

    /// The durable pull consumer of `address`.
    func consumerConfiguration(_ address: MailboxAddress) -> ConsumerConfiguration {
        ConsumerConfiguration(
            durableName: address.consumer, filterSubject: address.subject, ackPolicy: .explicit,
            ackWait: .seconds(30), maxDeliver: 20, deliverPolicy: .all, maxAckPending: 256,
            inactiveThreshold: configuration.mailboxMaxAge)
    }

    /// Whether mailboxes can be opened now.
    public var isReady: Bool { client.isConnected && streamReady.withLockedValue { $0 } }

    /// Registers `mailboxKey` (already checked) for the device and makes sure its consumer exists: what the app
    /// token of that device names. `nil` when the mailboxes are off or JetStream cannot be reached now (the token is
    /// then issued without a mailbox, and the next token tries again).
    func open(userID: UUID, deviceJKT: String, mailboxKey: String) async -> MailboxAddress? {
        guard isReady else { return nil }
        do {
            let address = try MailboxAddress(namespace: try VaultNamespace(userGUID: userID.key), deviceJKT: deviceJKT)
            let record = MailboxDeviceRecord(
                userID: userID, deviceJKT: deviceJKT, mailboxKey: mailboxKey,
                registeredAtMilliseconds: clock.unixMilliseconds())
            let maxDevices = configuration.mailboxMaxDevices
            let evicted = try await store.transaction { db in
                try await repository.register(record, maxDevices: maxDevices, on: db)
            }
            try await jetStream.createConsumer(consumerConfiguration(address), on: address.stream)
            for old in evicted { await deleteConsumer(userID: old.userID, deviceJKT: old.deviceJKT) }
            return address
        } catch {
            logger.warning("device mailbox not opened; token issued without one", metadata: ["error": "\(error)"])
            return nil
        }
    }

    /// Puts `notice` in the outbox for every mailbox of the member `userID` (nothing when the member has none); the
    /// relay publishes it. Security events do this in their own transaction; this is for other producers.
    public func post(_ notice: MailboxNotice, to userID: UUID) async throws {
        let entry = MailboxOutboxEntry(
            id: notice.id, userID: userID, createdAtMilliseconds: clock.unixMilliseconds(),
            notice: String(decoding: try notice.encoded(), as: UTF8.self))
        try await store.withDatabase { db in try await repository.enqueue(entry, on: db) }
    }

    /// Notices in the outbox not yet stored in every mailbox of their member.
    public func waitingNotices() async throws -> Int {
        try await store.withDatabase { db in try await repository.waitingCount(on: db) }
    }

    /// How long a connected app has to answer the presence question.
    static let presenceTimeout = Duration.seconds(1)

    /// Whether `device`'s app is connected: it answers on its presence subject (docs/protocol.md 7.6). No responders
    /// or no answer in time: away.
    func isPresent(_ device: MailboxDeviceRecord) async -> Bool {
        guard
            let address = try? MailboxAddress(
                namespace: try VaultNamespace(userGUID: device.userID.key), deviceJKT: device.deviceJKT)
        else { return false }
        do {
            _ = try await client.request(ByteBuffer(), to: address.presenceSubject, timeout: Self.presenceTimeout)
            return true
        } catch {
            return false
        }
    }

    /// Sends `device` a wake push unless its app is connected (``isPresent(_:)``); nothing without APNs or a token.
    func wake(_ device: MailboxDeviceRecord) async {
        await push?.wake(userID: device.userID, deviceJKT: device.deviceJKT) { await isPresent(device) }
    }

    /// Removes a revoked device's mailbox key and deletes its consumer (what is left on its subject ages out).
    func deviceRevoked(userID: UUID, deviceJKT: String) async {
        do {
            _ = try await store.transaction { db in
                try await repository.remove(userID: userID, deviceJKT: deviceJKT, on: db)
            }
        } catch {
            logger.warning("a revoked device's mailbox key was not removed", metadata: ["error": "\(error)"])
        }
        await deleteConsumer(userID: userID, deviceJKT: deviceJKT)
    }

    private func deleteConsumer(userID: UUID, deviceJKT: String) async {
        guard client.isConnected,
            let address = try? MailboxAddress(namespace: try VaultNamespace(userGUID: userID.key), deviceJKT: deviceJKT)
        else { return }
        do {
            try await jetStream.deleteConsumer(address.consumer, on: address.stream)
        } catch  where error.code == .consumerNotFound {
            return
        } catch {
            logger.warning("a device's mailbox consumer was not deleted", metadata: ["error": "\(error)"])
        }
    }

    /// Creates the stream, or brings an existing one to the configuration.
    func ensureStream() async {
        do {
            do {
                _ = try await jetStream.createStream(streamConfiguration)
            } catch  where error.code == .streamNameInUse {
                _ = try await jetStream.updateStream(streamConfiguration)
            }
            let wasReady = streamReady.withLockedValue { ready in
                defer { ready = true }
                return ready
            }
            if !wasReady { logger.info("mailbox stream ready", metadata: ["stream": "\(MailboxAddress.streamName)"]) }
        } catch {
            streamReady.withLockedValue { $0 = false }
            logger.warning(
                """
                mailboxes are off: JetStream refused the mailbox stream (does nats-server have a jetstream block, and \
                the account JetStream limits?)
                """,
                metadata: ["error": "\(error)"])
        }
    }

    /// Connects (retrying until nats-server is reachable), makes sure of the stream on every connect and relays the
    /// outbox until graceful shutdown. It never ends the service group early: a failed connect is retried.
    public func run() async throws {
        let events = client.makeEventStream()
        let relay = MailboxRelay(service: self, interval: configuration.mailboxRelayInterval, metrics: metrics)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await relay.run() }
            group.addTask {
                for await event in events {
                    switch event {
                    case .connected, .reconnected: await self.ensureStream()
                    default: continue
                    }
                }
            }
            group.addTask {
                while !Task.isCancelled {
                    do {
                        try await self.client.connect()
                        return
                    } catch {
                        self.logger.warning(
                            "mailbox relay: nats-server not reachable; retrying", metadata: ["error": "\(error)"])
                        try? await Task.sleep(for: .seconds(1))
                    }
                }
            }
            try? await gracefulShutdown()
            await self.client.close()
            group.cancelAll()
        }
    }
}
