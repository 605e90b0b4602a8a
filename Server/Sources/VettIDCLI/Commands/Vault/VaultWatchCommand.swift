// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import ArgumentParser
import Foundation
import VettIDAPI
import VettIDClient

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
        try await CLIContext.run(global) { context in
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
                    context.output.emit(
                        "run \(count): " + VaultCommand.human(result), json: VaultCommand.SyncResult(result))
                case .failed(let error):
                    context.output.emit(
                        "run \(count): sync failed: \(error)", json: Stopped(status: "failed", error: "\(error)"))
                case .expired:
                    context.output.emit("run \(count): expired and cancelled", json: Stopped(status: "expired"))
                case .signInRequired:
                    context.output.emit(
                        "run \(count): the member session has ended; stopped (run `vettid login`, then again)",
                        json: Stopped(status: "sign_in_required"))
                }
                if case .signInRequired = outcome { break }
                if let runs, count >= runs { break }
            }
            await refresh.stop()
        }
    }
}

extension VaultWatchCommand {
    /// A run that did not sync, in `--output json`.
    struct Stopped: Encodable {
        let status: String
        var error: String?
    }
}
