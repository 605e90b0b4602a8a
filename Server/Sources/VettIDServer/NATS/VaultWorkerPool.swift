// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Logging
import NATSClient
import VettIDCore
import VettIDMessaging
import VettIDSession

/// The vault workers one server process runs (`nats_worker_instances`), each its own NATS connection in the
/// `vault-workers` queue group, answering from this server's store with the handlers of
/// ``VaultHandlerRegistry/serverHandlers``, and sharing the process's one ``VaultSessionService`` (its sealed
/// sessions, its route's subject and queue group).
enum VaultWorkerPool {
    /// The workers, none without `nats_url` or with no instances configured.
    /// - Throws: ``VaultWorkerError`` when the server's handlers do not make a registry (a repeated or invalid id).
    static func make(
        configuration: NATSConfiguration, trust: NATSTrust, services: VaultHandlerServices,
        sessions: VaultSessionService? = nil, metrics: ServerMetrics? = nil, logger: Logger
    ) throws -> [VaultWorker] {
        guard let url = configuration.url, configuration.workerInstances > 0 else { return [] }
        let registry = try VaultHandlerRegistry.server(services)
        return (0..<configuration.workerInstances).map { _ in
            VaultWorker(
                configuration: .init(
                    servers: [url], tls: NATSTLSConfiguration(rootCertificatesPath: configuration.caFile),
                    maxPayloadBytes: configuration.workerMaxPayloadBytes, retryOnFailedConnect: true),
                credentials: credentials(trust, sealedRoute: sessions?.route), registry: registry,
                status: services.status, clock: services.clock, metrics: metrics, sessions: sessions, logger: logger)
        }
    }

    /// The process's sealed sessions: a fresh random route, one nonce cache and one table, devices checked in
    /// `lifecycle`, responses signed with the current vault identity key of `signingKeys`.
    static func sessions(
        lifecycle: VaultLifecycleService, signingKeys: TokenSigningKeys, clock: any WallClock,
        metrics: ServerMetrics?
    ) -> VaultSessionService {
        VaultSessionService(
            responder: SessionResponder(nonces: InMemoryHandshakeNonceCache(), clock: clock),
            table: SealedSessionTable(clock: clock),
            devices: { guid, thumbprint in
                guard let userID = UUID(uuidString: guid), userID.key == guid else { return false }
                return try await lifecycle.hasEnrolledDevice(userID: userID, deviceJKT: thumbprint)
            },
            identity: {
                let (kid, key) = signingKeys.vaultSessionKey(now: clock.now())
                return try VaultIdentityKey(kid: kid, privateKey: key)
            },
            metrics: metrics)
    }

    /// A member's vault status by GUID from `lifecycle` (`not_enrolled` for a GUID that is not a UUID).
    static func statusLookup(_ lifecycle: VaultLifecycleService) -> VaultRequestProcessor.StatusLookup {
        { guid in
            guard let userID = UUID(uuidString: guid) else { return ("not_enrolled", nil) }
            let status = try await lifecycle.status(userID: userID, credentialID: nil)
            return (status.value.rawValue, status.transactionKeysRemaining)
        }
    }

    /// Mints a worker user of the application account on every connect: `NatsPermissionSet.worker` (with the
    /// sealed envelopes of `sealedRoute`, when given: `NatsPermissionSet.worker(sealedRoute:)`), a fresh user NKey.
    static func credentials(_ trust: NATSTrust, sealedRoute: SessionRoute? = nil) -> VaultWorker.Credentials {
        let permissions = sealedRoute.map { NatsPermissionSet.worker(sealedRoute: $0.subjectToken) } ?? .worker
        return {
            let user = try trust.userCredentials(
                name: "vault-worker", permissions: permissions, issuedAt: Int64(Date().timeIntervalSince1970),
                expiresAt: nil)
            return (user.jwt, user.seed)
        }
    }
}
