// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import ArgumentParser
import Foundation
import Logging
import NATSClient
import NIOCore
import VettIDClient
import VettIDCore
import VettIDCrypto
import VettIDMessaging
import VettIDNats

/// `vettid nats`: the profile's device talks to its vault over NATS with a token the server issued.
public struct NATSCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "nats",
        abstract: "Set up, inspect and use the vault's NATS messaging (needs an enrolled, authenticated profile).",
        subcommands: [
            NATSSetupCommand.self, NATSStatusCommand.self, NATSSendCommand.self, NATSListenCommand.self,
            NATSRevokeCommand.self, NATSInboxCommand.self,
        ]
    )

    public init() {}

    /// Where the profile keeps the CA it trusts for a `tls://` endpoint.
    @MainActor
    static func caKey(_ context: CLIContext) -> String { "profile.\(context.options.profile).nats.ca" }

    /// The profile's stored NATS credentials.
    @MainActor
    static func credentialStore(_ context: CLIContext) -> NatsCredentialStore {
        NatsCredentialStore(store: context.store, keyPrefix: "profile.\(context.options.profile)")
    }

    /// A connection manager over the profile's vault service and stored credentials; its handler requests go over a
    /// sealed session with the vault (signed by the profile's device key, checked against the pinned vault keys).
    @MainActor
    static func manager(_ context: CLIContext, service: VaultService) async throws -> NatsConnectionManager {
        let ca = try await context.store.data(forKey: caKey(context)).map { String(decoding: $0, as: UTF8.self) }
        var logger = Logger(label: "vettid-nats") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = .error
        return NatsConnectionManager(
            configuration: .init(
                tls: NATSTLSConfiguration(rootCertificatesPath: ca),
                reconnect: NATSReconnectPolicy(maxAttemptsPerServer: 3, wait: .milliseconds(500)), name: "vettid-cli",
                logger: logger),
            provider: service, store: credentialStore(context),
            sealedSession: VaultSessionChannel(
                dependencies: .init(vault: service, deviceKeyStore: service.deviceKeyStore)))
    }

    /// Connects or fails with the manager's reason.
    @MainActor
    static func connect(_ manager: NatsConnectionManager, using credentials: NatsCredentials? = nil) async throws {
        if let credentials { await manager.connect(using: credentials) } else { await manager.connect() }
        if case .error(let message) = manager.state {
            throw CLIFailure(code: "nats_connect_failed", message: message)
        }
    }

    static func human(_ response: VaultResponse) -> String {
        switch response {
        case .handlerResult(let id, let handler, .success(let value), _):
            return "\(handler) [\(id)]: \(String(decoding: value.serialized(), as: UTF8.self))"
        case .handlerResult(let id, let handler, .failure(let error), _):
            return "\(handler) [\(id)] failed: \(error.code): \(error.message)"
        case .statusResponse(let id, let status, _):
            return
                "status [\(id)]: vault \(status.vaultStatus), keys \(status.transactionKeysRemaining.map(String.init) ?? "-"), "
                + "answered by \(status.workerID), handlers \(status.handlers.joined(separator: ", "))"
        case .eventTypes(let id, let types, _):
            return "event types [\(id ?? "published")]: "
                + types.map { "\($0.handlerID) (\($0.description))" }.joined(separator: ", ")
        case .error(let id, let error, _):
            return "error [\(id ?? "-")]: \(error.code): \(error.message)"
        }
    }
}
