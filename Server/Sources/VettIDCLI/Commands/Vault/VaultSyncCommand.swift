// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import ArgumentParser
import Foundation
import VettIDAPI
import VettIDClient

/// `vettid vault sync`.
public struct VaultSyncCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "sync", abstract: "Sync the vault; replenished transaction keys are stored on this device.")

    @OptionGroup var global: GlobalOptions

    public init() {}

    @MainActor
    public func run() async throws {
        try await CLIContext.run(global) { context in
            let result = try await VaultCommand.service(context).syncVault()
            context.output.emit(VaultCommand.human(result), json: VaultCommand.SyncResult(result))
        }
    }
}
