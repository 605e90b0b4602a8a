// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import ArgumentParser
import Foundation
import VettIDAPI
import VettIDClient

/// `vettid vault deploy`: the member (signed in with `vettid login`) provisions their vault.
public struct VaultDeployCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "deploy", abstract: "Provision the signed-in member's vault and make it active (idempotent).")

    @OptionGroup var global: GlobalOptions

    public init() {}

    @MainActor
    public func run() async throws {
        try await CLIContext.run(global) { context in
            let deployed = try await context.auth.apiClient.perform { client in
                try await client.deployVault().ok.body.json
            }
            context.output.emit(
                "vault \(deployed.status.rawValue): owner space \(deployed.ownerSpaceId), message space \(deployed.messageSpaceId)",
                json: Result(
                    status: deployed.status.rawValue, userGUID: deployed.userGuid, ownerSpaceID: deployed.ownerSpaceId,
                    messageSpaceID: deployed.messageSpaceId, deployedAt: deployed.deployedAt))
        }
    }
}

extension VaultDeployCommand {
    /// The `--output json` result.
    struct Result: Encodable {
        let status: String
        let userGUID: String
        let ownerSpaceID: String
        let messageSpaceID: String
        let deployedAt: Date
    }
}
