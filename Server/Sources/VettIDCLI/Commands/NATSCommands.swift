// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import ArgumentParser
import Foundation
import Logging
import NATSClient
import NIOCore
import VettIDClient
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
            NATSRevokeCommand.self,
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

    /// A connection manager over the profile's vault service and stored credentials.
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
            provider: service, store: credentialStore(context))
    }

    /// Connects or fails with the manager's reason.
    @MainActor
    static func connect(_ manager: NatsConnectionManager, using credentials: NatsCredentials? = nil) async throws {
        if let credentials { await manager.connect(using: credentials) } else { await manager.connect() }
        if case .error(let message) = manager.state {
            throw CLIFailure(code: "nats_connect_failed", message: message)
        }
    }

    /// Runs `body`, turning NATS-layer errors into CLI failures.
    @MainActor
    static func run(_ global: GlobalOptions, _ body: (CLIContext) async throws -> Void) async throws {
        try await withContext(global) { context in
            do {
                try await body(context)
            } catch let error as NatsConnectionError {
                throw CLIFailure(code: error.vaultError?.code.rawValue ?? error.code.rawValue, message: error.message)
            } catch let error as NATSError {
                throw CLIFailure(code: error.code.rawValue, message: error.message)
            }
        }
    }

    static func json(_ response: VaultResponse) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(response.encoded()))) as? [String: Any] ?? [:]
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

/// `vettid nats setup`: namespaces, an app token kept in the profile's store, a TLS connection, a status request.
public struct NATSSetupCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "setup",
        abstract: "Create the NATS namespaces (if needed), get an app token, connect and ask the vault for its status.")

    @OptionGroup var global: GlobalOptions
    @Option(name: .customLong("ca"), help: "PEM CA to trust for a tls:// endpoint (kept in the profile).")
    var caFile: String?

    public init() {}

    @MainActor
    public func run() async throws {
        try await NATSCommand.run(global) { context in
            if let caFile {
                guard FileManager.default.isReadableFile(atPath: caFile) else {
                    throw CLIFailure(code: "invalid_ca", message: "cannot read \(caFile)")
                }
                let absolute = URL(fileURLWithPath: caFile).standardizedFileURL.path
                try await context.store.set(Data(absolute.utf8), forKey: NATSCommand.caKey(context))
            }
            let service = try await VaultCommand.service(context)
            // Creating is idempotent; whether the namespaces existed before is told by the status.
            var created = try await !service.getNatsStatus().hasAccount
            do {
                _ = try await service.createNatsAccount()
            } catch let error as APIError where error.code == .accountExists {
                created = false  // a server before 2026-11-25
            }
            let credentials = try await service.createNatsToken(clientType: .app, deviceID: "vettid-cli")
            let manager = try await NATSCommand.manager(context, service: service)
            try await NATSCommand.connect(manager, using: credentials)
            let status = try await manager.ownerSpace().status()
            await manager.disconnect()
            let expires = ISO8601DateFormatter().string(from: credentials.expiresAt)
            context.output.emit(
                """
                namespaces: \(credentials.namespace.ownerSpace), \(credentials.namespace.messageSpace) (\(created ? "created" : "existing"))
                token: \(credentials.tokenID), expires \(expires), kept in the profile's encrypted store
                connected: \(credentials.endpoint)
                vault: \(status.vaultStatus), answered by \(status.workerID)
                """,
                json: [
                    "account_created": created, "owner_space_id": credentials.namespace.ownerSpace,
                    "message_space_id": credentials.namespace.messageSpace,
                    "token_id": credentials.tokenID, "expires_at": expires, "endpoint": credentials.endpoint,
                    "vault_status": status.vaultStatus, "worker_id": status.workerID, "handlers": status.handlers,
                ])
        }
    }
}

/// `vettid nats status`: the server's view (namespaces, active tokens) and the stored token.
public struct NATSStatusCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Show the NATS namespaces, active tokens and the profile's stored token.")

    @OptionGroup var global: GlobalOptions

    public init() {}

    @MainActor
    public func run() async throws {
        try await NATSCommand.run(global) { context in
            let status = try await VaultCommand.service(context).getNatsStatus()
            let stored = await NATSCommand.credentialStore(context).load()
            let formatter = ISO8601DateFormatter()
            var lines = ["account: \(status.account?.ownerSpace ?? "none")"]
            if let endpoint = status.endpoint { lines.append("endpoint: \(endpoint)") }
            lines += status.activeTokens.map {
                "token \($0.tokenID) (\($0.clientType.rawValue)\($0.deviceID.map { ", \($0)" } ?? "")) expires \(formatter.string(from: $0.expiresAt))"
            }
            if let stored {
                lines.append(
                    "stored: \(stored.tokenID), expires \(formatter.string(from: stored.expiresAt))"
                        + (stored.isExpired
                            ? " (expired)" : stored.shouldRefresh(at: Date()) ? " (due for refresh)" : ""))
            }
            var json: [String: Any] = [
                "has_account": status.hasAccount,
                "active_tokens": status.activeTokens.map {
                    [
                        "token_id": $0.tokenID, "client_type": $0.clientType.rawValue,
                        "expires_at": formatter.string(from: $0.expiresAt),
                    ]
                },
            ]
            json["owner_space_id"] = status.account?.ownerSpace
            json["message_space_id"] = status.account?.messageSpace
            json["endpoint"] = status.endpoint
            json["stored_token_id"] = stored?.tokenID
            context.output.emit(lines.joined(separator: "\n"), json: json)
        }
    }
}

/// `vettid nats send`: one request to the vault, and its answer.
public struct NATSSendCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "send", abstract: "Send a request to the vault (a handler, a status or an event-types request).")

    @OptionGroup var global: GlobalOptions
    @Option(help: "Handler id to execute (e.g. echo, vault.info).")
    var handler: String?
    @Option(help: "JSON payload for the handler.")
    var payload: String = "null"
    @Flag(help: "Ask for the vault's status instead.")
    var status = false
    @Flag(name: .customLong("event-types"), help: "Ask for the handler catalogue instead.")
    var eventTypes = false

    public init() {}

    public func validate() throws {
        guard [handler != nil, status, eventTypes].filter({ $0 }).count == 1 else {
            throw ValidationError("give exactly one of --handler, --status, --event-types")
        }
    }

    @MainActor
    public func run() async throws {
        try await NATSCommand.run(global) { context in
            guard let payload = JSONValue.parse(Array(self.payload.utf8)) else {
                throw CLIFailure(code: "invalid_payload", message: "--payload is not JSON")
            }
            let manager = try await NATSCommand.manager(context, service: try await VaultCommand.service(context))
            try await NATSCommand.connect(manager)
            let id = UUID().uuidString.lowercased()
            let now = Int64(Date().timeIntervalSince1970 * 1000)
            let message: VaultMessage =
                if let handler {
                    .executeHandler(id: id, handlerID: handler, payload: payload, timestamp: now)
                } else if status { .statusRequest(id: id, timestamp: now) } else {
                    .eventTypesRequest(id: id, timestamp: now)
                }
            let response = try await manager.ownerSpace().request(message)
            await manager.disconnect()
            context.output.emit(NATSCommand.human(response), json: NATSCommand.json(response))
            if !response.isSuccess { throw ExitCode(1) }
        }
    }
}

/// `vettid nats listen`: print what the vault sends on the member's `forApp` and `eventTypes` subjects.
public struct NATSListenCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "listen", abstract: "Print the vault's answers and event types as they arrive.")

    @OptionGroup var global: GlobalOptions
    @Option(help: "Stop after this many messages (default: run until interrupted or --seconds).")
    var count: Int?
    @Option(help: "Stop after this many seconds.")
    var seconds: Double?

    public init() {}

    @MainActor
    public func run() async throws {
        try await NATSCommand.run(global) { context in
            let manager = try await NATSCommand.manager(context, service: try await VaultCommand.service(context))
            try await NATSCommand.connect(manager)
            let owner = try manager.ownerSpace()
            let responses = try owner.subscribeToVaultResponses()
            let published = try owner.subscribeToEventTypes()
            let (arrivals, sink) = AsyncStream.makeStream(of: VaultResponse.self)
            let readers = [
                Task {
                    for await response in responses { sink.yield(response) }
                },
                Task {
                    for await message in published {
                        if let response = try? VaultResponse.decode(message.payload.readableBytesView) {
                            sink.yield(response)
                        }
                    }
                },
            ]
            let deadline = seconds.map { seconds in
                Task {
                    try await Task.sleep(for: .milliseconds(Int64(seconds * 1000)))
                    sink.finish()
                }
            }
            // Ctrl-C or SIGTERM ends the listening cleanly: what arrived is printed, the connection closed, exit 0.
            let interrupts = InterruptSignals { sink.finish() }
            defer { interrupts.cancel() }
            var seen = 0
            for await response in arrivals {
                context.output.emit(NATSCommand.human(response), json: NATSCommand.json(response))
                seen += 1
                if let count, seen >= count { break }
            }
            deadline?.cancel()
            responses.unsubscribe()
            published.unsubscribe()
            await manager.disconnect()
            for reader in readers { reader.cancel() }
        }
    }
}

/// `vettid nats revoke`: revoke a token (the stored one by default); nats-server cuts it off.
public struct NATSRevokeCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "revoke", abstract: "Revoke a NATS token (default: the profile's stored token).")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The token id (see `vettid nats status`).")
    var tokenID: String?

    public init() {}

    @MainActor
    public func run() async throws {
        try await NATSCommand.run(global) { context in
            let store = NATSCommand.credentialStore(context)
            let stored = await store.load()
            guard let id = tokenID ?? stored?.tokenID else {
                throw CLIFailure(
                    code: "no_token", message: "no token id given and none stored; see `vettid nats status`")
            }
            let revoked: NatsTokenRevocation
            do {
                revoked = try await VaultCommand.service(context).revokeNatsToken(id: id)
            } catch let error as APIError where error.code == .natsUnavailable {
                // The server recorded the revocation and pushes it once nats-server is back: the token is dead
                // either way, so it is no longer the profile's.
                if stored?.tokenID == id { await store.remove() }
                throw error
            }
            if stored?.tokenID == id { await store.remove() }
            let at = ISO8601DateFormatter().string(from: revoked.revokedAt)
            context.output.emit(
                "revoked \(revoked.tokenID) at \(at); nats-server has cut it off",
                json: ["token_id": revoked.tokenID, "status": revoked.status, "revoked_at": at])
        }
    }
}
