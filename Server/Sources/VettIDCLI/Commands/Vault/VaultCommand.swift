// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import ArgumentParser
import Foundation
import VettIDAPI
import VettIDClient

/// `vettid vault`: the vault's status, sync, deploy, and a long-running background refresh.
public struct VaultCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "vault",
        abstract:
            "Show, sync, deploy or keep refreshing the vault this profile's device is enrolled in; keep secrets and a profile in it.",
        subcommands: [
            VaultStatusCommand.self, VaultSyncCommand.self, VaultDeployCommand.self, VaultWatchCommand.self,
            VaultSecretCommand.self, VaultProfileCommand.self,
        ]
    )

    public init() {}

    /// The profile's vault service; a missing or refused vault session is renewed once by asking for the vault
    /// password (`vettid auth` runs the same authentication).
    @MainActor
    static func service(_ context: CLIContext) async throws -> VaultService {
        let device = VaultDevice(context: context, serverURL: try await VaultDevice.rememberedServer(context: context))
        // Development-token and unattested credentials need no assertion; the attester is never asked.
        return try await device.service(attester: DevelopmentTokenAttester(token: "")) { service in
            let password: String
            do {
                password = try PasswordPrompt.read(prompt: "Vault password (the vault session expired): ")
            } catch is PasswordPrompt.NoInput {
                throw APIError(
                    code: .reauthenticationRequired,
                    description: "There is no vault session and no terminal to ask for the vault password: "
                        + "run `vettid auth`, or `vettid login` so that status, sync and NATS use the member's session."
                )
            }
            return try await service.authenticate(password: password)
        }
    }

    /// A sync in `--output json` (`vault sync`, and each run of `vault watch`).
    struct SyncResult: Encodable {
        let status: String
        let lastSyncAt: Date
        let transactionKeysRemaining: Int
        let newTransactionKeys: Int
        let credentialVersion: Int
        let storedTransactionKeys: Int

        init(_ result: VaultSyncResult) {
            status = result.status.rawValue
            lastSyncAt = result.lastSyncAt
            transactionKeysRemaining = result.transactionKeysRemaining
            newTransactionKeys = result.newTransactionKeys.count
            credentialVersion = result.credentialVersion
            storedTransactionKeys = result.storedTransactionKeys
        }
    }

    static func human(_ result: VaultSyncResult) -> String {
        "\(result.status.rawValue): \(result.newTransactionKeys.count) new transaction keys, "
            + "\(result.transactionKeysRemaining) unused on the server, \(result.storedTransactionKeys) stored on this device"
    }
}
