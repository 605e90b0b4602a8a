// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Logging
import NATSClient
import VettIDCore
import VettIDMessaging

/// The vault workers one server process runs (`nats_worker_instances`), each its own NATS connection in the
/// `vault-workers` queue group, answering from this server's store with the handlers of
/// ``VaultHandlerRegistry/serverHandlers``.
enum VaultWorkerPool {
    /// The workers, none without `nats_url` or with no instances configured.
    /// - Throws: ``VaultWorkerError`` when the server's handlers do not make a registry (a repeated or invalid id).
    static func make(
        configuration: NATSConfiguration, trust: NATSTrust, services: VaultHandlerServices,
        metrics: ServerMetrics? = nil, logger: Logger
    ) throws -> [VaultWorker] {
        guard let url = configuration.url, configuration.workerInstances > 0 else { return [] }
        let registry = try VaultHandlerRegistry.server(services)
        return (0..<configuration.workerInstances).map { _ in
            VaultWorker(
                configuration: .init(
                    servers: [url], tls: NATSTLSConfiguration(rootCertificatesPath: configuration.caFile),
                    maxPayloadBytes: configuration.workerMaxPayloadBytes, retryOnFailedConnect: true),
                credentials: credentials(trust), registry: registry, status: services.status, clock: services.clock,
                metrics: metrics, logger: logger)
        }
    }

    /// A member's vault status by GUID from `lifecycle` (`not_enrolled` for a GUID that is not a UUID).
    static func statusLookup(_ lifecycle: VaultLifecycleService) -> VaultRequestProcessor.StatusLookup {
        { guid in
            guard let userID = UUID(uuidString: guid) else { return ("not_enrolled", nil) }
            let status = try await lifecycle.status(userID: userID, credentialID: nil)
            return (status.value.rawValue, status.transactionKeysRemaining)
        }
    }

    /// Mints a worker user of the application account on every connect: `NatsPermissionSet.worker`, a fresh
    /// user NKey.
    static func credentials(_ trust: NATSTrust) -> VaultWorker.Credentials {
        {
            let user = try trust.userCredentials(
                name: "vault-worker", permissions: .worker, issuedAt: Int64(Date().timeIntervalSince1970),
                expiresAt: nil)
            return (user.jwt, user.seed)
        }
    }
}
