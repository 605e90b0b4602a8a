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

/// `vettid nats status`: the server's view (namespaces, active tokens) and the stored token.
public struct NATSStatusCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Show the NATS namespaces, active tokens and the profile's stored token.")

    @OptionGroup var global: GlobalOptions

    public init() {}

    @MainActor
    public func run() async throws {
        try await CLIContext.run(global) { context in
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
            let result = Result(
                hasAccount: status.hasAccount,
                activeTokens: status.activeTokens.map {
                    .init(tokenID: $0.tokenID, clientType: $0.clientType.rawValue, expiresAt: $0.expiresAt)
                },
                ownerSpaceID: status.account?.ownerSpace, messageSpaceID: status.account?.messageSpace,
                endpoint: status.endpoint, storedTokenID: stored?.tokenID)
            context.output.emit(lines.joined(separator: "\n"), json: result)
        }
    }
}

extension NATSStatusCommand {
    /// The `--output json` result.
    struct Result: Encodable {
        /// One of the member's active tokens.
        struct Token: Encodable {
            let tokenID: String
            let clientType: String
            let expiresAt: Date
        }

        let hasAccount: Bool
        let activeTokens: [Token]
        let ownerSpaceID: String?
        let messageSpaceID: String?
        let endpoint: String?
        let storedTokenID: String?
    }
}
