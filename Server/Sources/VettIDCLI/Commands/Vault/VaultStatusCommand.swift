// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import ArgumentParser
import Foundation
import VettIDAPI
import VettIDClient

/// `vettid vault status`.
public struct VaultStatusCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Show the vault's status (with the device's vault session).")

    @OptionGroup var global: GlobalOptions

    public init() {}

    @MainActor
    public func run() async throws {
        try await CLIContext.run(global) { context in
            let status = try await VaultCommand.service(context).getVaultStatus()
            var lines = ["vault: \(status.status.rawValue)"]
            if let guid = status.userGUID { lines.append("user guid: \(guid)") }
            if let version = status.credentialVersion { lines.append("credential version: \(version)") }
            if let keys = status.transactionKeysRemaining { lines.append("transaction keys: \(keys)") }
            if let level = status.securityLevel { lines.append("security level: \(level)") }
            if let synced = status.lastSyncAt {
                lines.append("last sync: \(ISO8601DateFormatter().string(from: synced))")
            }
            if let message = status.errorMessage { lines.append("error: \(message)") }
            context.output.emit(lines.joined(separator: "\n"), json: Result(status))
        }
    }
}

extension VaultStatusCommand {
    /// The `--output json` result: the server's answer, absent fields left out.
    struct Result: Encodable {
        let status: String
        let userGUID: String?
        let enrolledAt: Date?
        let lastAuthAt: Date?
        let lastSyncAt: Date?
        let deviceType: String?
        let securityLevel: String?
        let transactionKeysRemaining: Int?
        let credentialVersion: Int?
        let errorMessage: String?

        init(_ status: VaultStatus) {
            self.status = status.status.rawValue
            userGUID = status.userGUID
            enrolledAt = status.enrolledAt
            lastAuthAt = status.lastAuthAt
            lastSyncAt = status.lastSyncAt
            deviceType = status.deviceType?.rawValue
            securityLevel = status.securityLevel
            transactionKeysRemaining = status.transactionKeysRemaining
            credentialVersion = status.credentialVersion
            errorMessage = status.errorMessage
        }
    }
}
