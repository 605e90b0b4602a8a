// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
public import Logging
import NATSClient
import NIOConcurrencyHelpers
import NIOCore
public import ServiceLifecycle
import VettIDCore
import VettIDCrypto

/// The server's connection to nats-server as a user of the system account: it pushes the application account
/// JWT (with its revocations) to nats-server, which then cuts off every revoked user at once.
///
/// Every push sends the account JWT as the store says it should be at that moment (built after the change it
/// enforces was committed), one push at a time. On every connect and reconnect, and every
/// ``reconcileInterval``, it pushes again, so a revocation recorded while nats-server was unreachable (or a
/// nats-server that lost its resolver directory, or a race between two server processes) is enforced as soon
/// as nats-server is back, and within one interval at worst. A push that may have raced another instance's inside
/// nats-server (`NATSAccountPushRace`) is followed by one more push 0.5–1.5 s later.
public final class NATSAccountPublisher: Service, Sendable {
    /// Why an account update did not take.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    private let client: NATSClient
    private let accountKey: String
    private let builder: NATSAccountJWTBuilder
    private let logger: Logger
    private let pushes = AsyncSerialLock()
    /// The `iat` of this instance's last push.
    private let ownIssuedAt = NIOLockedValueBox<Int64?>(nil)
    /// Requests for the one settling re-push after a suspected race (at most one waits).
    private let settleRequests: AsyncStream<Void>
    private let settleRequester: AsyncStream<Void>.Continuation
    /// How often the account is re-pushed while connected.
    public let reconcileInterval: Duration
    private let metrics: ServerMetrics?

    /// - Parameters:
    ///   - url: nats-server (`nats://` or `tls://`).
    ///   - caFile: A CA bundle for nats-server's certificate, if not a public one.
    ///   - trust: Mints the system user's JWT on every (re)connect.
    ///   - builder: Builds the application account JWT from the store.
    ///   - logger: Where connections and pushes are logged.
    ///   - reconcileInterval: How often to re-push while connected.
    ///   - metrics: Where pushes and their failures are counted.
    public init(
        url: String, caFile: String?, trust: NATSTrust, builder: NATSAccountJWTBuilder, logger: Logger,
        reconcileInterval: Duration = .seconds(60), metrics: ServerMetrics? = nil
    ) throws {
        let signer = NATSCredentialSigner {
            let user = try trust.systemUserCredentials(now: Int64(Date().timeIntervalSince1970))
            return (user.jwt, user.seed)
        }
        self.client = try NATSClient(
            configuration: NATSClient.Configuration(
                servers: [url], name: "vettid-server account publisher",
                auth: signer.auth,
                requestTimeout: .seconds(5),
                reconnect: NATSReconnectPolicy(maxAttemptsPerServer: nil, wait: .seconds(1)),
                retryOnFailedConnect: true,
                tls: NATSTLSConfiguration(rootCertificatesPath: caFile),
                logger: logger))
        self.accountKey = trust.applicationAccount.publicKey
        self.builder = builder
        self.logger = logger
        self.reconcileInterval = reconcileInterval
        self.metrics = metrics
        (settleRequests, settleRequester) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// Builds the current account JWT and pushes it; one push at a time.
    public func pushCurrent() async throws {
        try await pushCurrent(settling: false)
    }

    /// Builds and pushes; unless `settling`, asks for the settling re-push when the push may have raced another
    /// instance's.
    private func pushCurrent(settling: Bool) async throws {
        do {
            let race = try await pushes.withLock { () async throws -> NATSAccountPushRace in
                let built = try await builder.build()
                let lastOwn = ownIssuedAt.withLockedValue { last in
                    defer { last = built.issuedAt }
                    return last
                }
                try await push(built.jwt)
                let latest = (try? await builder.latestIssuedAt()) ?? built.issuedAt
                return NATSAccountPushRace(
                    issuedAt: built.issuedAt, previousIssuedAt: built.previousIssuedAt, latestIssuedAt: latest,
                    lastOwnIssuedAt: lastOwn)
            }
            metrics?.revocationPush(succeeded: true)
            if !settling, race.isSuspected {
                logger.info(
                    "account JWT push may have crossed another instance's; pushing again shortly",
                    metadata: ["iat": "\(race.issuedAt)", "latest_iat": "\(race.latestIssuedAt)"])
                settleRequester.yield()
            }
        } catch {
            metrics?.revocationPush(succeeded: false)
            throw error
        }
    }

    /// Sends `jwt` as the application account's new claims and waits for nats-server to accept it.
    func push(_ jwt: String) async throws {
        guard client.isConnected else { throw Failure(description: "not connected to nats-server") }
        let reply = try await client.request(
            ByteBuffer(string: jwt), to: "$SYS.REQ.ACCOUNT.\(accountKey).CLAIMS.UPDATE", timeout: .seconds(5))
        let body = JSONValue.parse(reply.payload.readableBytesView)
        if let code = body?["data"]?["code"]?.int64Value, code == 200 { return }
        let detail =
            body?["error"]?["description"]?.stringValue ?? body?["data"]?["message"]?.stringValue ?? "no reply body"
        throw Failure(description: "nats-server refused the account update: \(detail)")
    }

    /// Pushes the store's current account JWT; logs instead of throwing (a later reconnect pushes again).
    func reconcile(settling: Bool = false) async {
        do {
            try await pushCurrent(settling: settling)
            logger.info("application account JWT pushed to nats-server", metadata: ["account": "\(accountKey)"])
        } catch {
            logger.warning("account JWT push failed; retried on reconnect", metadata: ["error": "\(error)"])
        }
    }

    /// Connects (retrying in the background until nats-server is reachable) and keeps the account in sync
    /// until graceful shutdown.
    public func run() async throws {
        let events = client.makeEventStream()
        try await withGracefulShutdownHandler {
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    while !Task.isCancelled {
                        try await Task.sleep(for: self.reconcileInterval)
                        if self.client.isConnected { await self.reconcile() }
                    }
                }
                group.addTask {
                    for await _ in self.settleRequests {
                        // Random, so two instances that both suspect the race do not push at the same moment again.
                        try await Task.sleep(for: .milliseconds(Int.random(in: 500...1500)))
                        if self.client.isConnected { await self.reconcile(settling: true) }
                    }
                }
                try await self.client.connect()
                for await event in events {
                    switch event {
                    case .connected, .reconnected: await self.reconcile()
                    default: continue
                    }
                }
                group.cancelAll()
            }
        } onGracefulShutdown: {
            Task { await self.client.close() }
        }
        await client.close()
    }

    /// Whether the publisher is connected now.
    public var isConnected: Bool { client.isConnected }
}
