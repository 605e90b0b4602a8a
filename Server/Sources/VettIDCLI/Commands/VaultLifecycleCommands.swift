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
        abstract: "Show, sync, deploy or keep refreshing the vault this profile's device is enrolled in.",
        subcommands: [VaultStatusCommand.self, VaultSyncCommand.self, VaultDeployCommand.self, VaultWatchCommand.self]
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
                        + "run `vettid vault auth`, or `vettid login` so that status, sync and NATS use the member's session."
                )
            }
            return try await service.authenticate(password: password)
        }
    }

    static func json(_ status: VaultStatus) -> [String: Any] {
        var object: [String: Any] = ["status": status.status.rawValue]
        let formatter = ISO8601DateFormatter()
        if let value = status.userGUID { object["user_guid"] = value }
        if let value = status.enrolledAt { object["enrolled_at"] = formatter.string(from: value) }
        if let value = status.lastAuthAt { object["last_auth_at"] = formatter.string(from: value) }
        if let value = status.lastSyncAt { object["last_sync_at"] = formatter.string(from: value) }
        if let value = status.deviceType { object["device_type"] = value.rawValue }
        if let value = status.securityLevel { object["security_level"] = value }
        if let value = status.transactionKeysRemaining { object["transaction_keys_remaining"] = value }
        if let value = status.credentialVersion { object["credential_version"] = value }
        if let value = status.errorMessage { object["error_message"] = value }
        return object
    }

    static func json(_ result: VaultSyncResult) -> [String: Any] {
        [
            "status": result.status.rawValue, "last_sync_at": ISO8601DateFormatter().string(from: result.lastSyncAt),
            "transaction_keys_remaining": result.transactionKeysRemaining,
            "new_transaction_keys": result.newTransactionKeys.count, "credential_version": result.credentialVersion,
            "stored_transaction_keys": result.storedTransactionKeys,
        ]
    }

    static func human(_ result: VaultSyncResult) -> String {
        "\(result.status.rawValue): \(result.newTransactionKeys.count) new transaction keys, "
            + "\(result.transactionKeysRemaining) unused on the server, \(result.storedTransactionKeys) stored on this device"
    }
}

/// `vettid vault status`.
public struct VaultStatusCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Show the vault's status (with the device's vault session).")

    @OptionGroup var global: GlobalOptions

    public init() {}

    @MainActor
    public func run() async throws {
        try await withContext(global) { context in
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
            context.output.emit(lines.joined(separator: "\n"), json: VaultCommand.json(status))
        }
    }
}

/// `vettid vault sync`.
public struct VaultSyncCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "sync", abstract: "Sync the vault; replenished transaction keys are stored on this device.")

    @OptionGroup var global: GlobalOptions

    public init() {}

    @MainActor
    public func run() async throws {
        try await withContext(global) { context in
            let result = try await VaultCommand.service(context).syncVault()
            context.output.emit(VaultCommand.human(result), json: VaultCommand.json(result))
        }
    }
}

/// `vettid vault deploy`: the member (signed in with `vettid login`) provisions their vault.
public struct VaultDeployCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "deploy", abstract: "Provision the signed-in member's vault and make it active (idempotent).")

    @OptionGroup var global: GlobalOptions

    public init() {}

    @MainActor
    public func run() async throws {
        try await withContext(global) { context in
            let deployed = try await context.auth.apiClient.perform { client in
                try await client.deployVault().ok.body.json
            }
            context.output.emit(
                "vault \(deployed.status.rawValue): owner space \(deployed.ownerSpaceId), message space \(deployed.messageSpaceId)",
                json: [
                    "status": deployed.status.rawValue, "user_guid": deployed.userGuid,
                    "owner_space_id": deployed.ownerSpaceId,
                    "message_space_id": deployed.messageSpaceId,
                    "deployed_at": ISO8601DateFormatter().string(from: deployed.deployedAt),
                ])
        }
    }
}

/// `vettid vault watch`: keeps the vault synced on an in-process background scheduler, like the app's
/// background refresh (every six hours by default), printing each run.
public struct VaultWatchCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Keep the vault synced in the background (every 6 hours by default); prints each run.")

    @OptionGroup var global: GlobalOptions
    @Option(help: "Seconds between syncs.") var interval: Int = 6 * 3600
    @Option(help: "Stop after this many runs (default: run until interrupted).") var runs: Int?

    public init() {}

    public func validate() throws {
        guard interval >= 1 else { throw ValidationError("--interval must be at least 1 second") }
        if let runs, runs < 1 { throw ValidationError("--runs must be at least 1") }
    }

    @MainActor
    public func run() async throws {
        try await withContext(global) { context in
            let vault = try await VaultCommand.service(context)
            let refresh = VaultRefreshTask(
                service: vault, scheduler: InProcessBackgroundScheduler(maximumRunDuration: .seconds(60)),
                interval: .seconds(interval))
            try await refresh.start(firstRunAfter: .zero)
            var count = 0
            for await outcome in refresh.outcomes {
                count += 1
                switch outcome {
                case .synced(let result):
                    context.output.emit("run \(count): " + VaultCommand.human(result), json: VaultCommand.json(result))
                case .failed(let error):
                    context.output.emit(
                        "run \(count): sync failed: \(error)", json: ["status": "failed", "error": "\(error)"])
                case .expired:
                    context.output.emit("run \(count): expired and cancelled", json: ["status": "expired"])
                case .signInRequired:
                    context.output.emit(
                        "run \(count): the member session has ended; stopped (run `vettid login`, then again)",
                        json: ["status": "sign_in_required"])
                }
                if case .signInRequired = outcome { break }
                if let runs, count >= runs { break }
            }
            await refresh.stop()
        }
    }
}
