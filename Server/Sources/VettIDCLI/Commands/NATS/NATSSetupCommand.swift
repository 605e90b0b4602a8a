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
        try await CLIContext.run(global) { context in
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
            let credentials = try await service.issueAppCredentials(deviceID: "vettid-cli")
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
                json: Result(
                    accountCreated: created, ownerSpaceID: credentials.namespace.ownerSpace,
                    messageSpaceID: credentials.namespace.messageSpace, tokenID: credentials.tokenID,
                    expiresAt: credentials.expiresAt, endpoint: credentials.endpoint, vaultStatus: status.vaultStatus,
                    workerID: status.workerID, handlers: status.handlers))
        }
    }
}

extension NATSSetupCommand {
    /// The `--output json` result.
    struct Result: Encodable {
        let accountCreated: Bool
        let ownerSpaceID: String
        let messageSpaceID: String
        let tokenID: String
        let expiresAt: Date
        let endpoint: String
        let vaultStatus: String
        let workerID: String
        let handlers: [String]
    }
}
