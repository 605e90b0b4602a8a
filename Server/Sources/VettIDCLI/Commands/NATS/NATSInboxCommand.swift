// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import ArgumentParser
import Foundation
import VettIDClient
import VettIDMessaging
import VettIDNats

/// `vettid nats inbox`: connect as this device, print what the vault left in its mailbox while it was away, and
/// acknowledge it (docs/protocol.md 7.5).
public struct NATSInboxCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "inbox",
        abstract: "Print (and acknowledge) what the vault left in this device's mailbox while it was away.",
        discussion: """
            Each notice is printed once and then acknowledged: a second run prints only what arrived since. \
            With --wait, it keeps listening for that many seconds and prints what arrives live.
            """)

    @OptionGroup var global: GlobalOptions
    @Option(help: "Keep listening for this many seconds after catching up.")
    var wait: Double?

    public init() {}

    @MainActor
    public func run() async throws {
        try await CLIContext.run(global) { context in
            let manager = try await NATSCommand.manager(context, service: try await VaultCommand.service(context))
            let output = context.output
            manager.mailboxHandler = { notice in
                let json = Array((try? notice.encoded()) ?? Data("{}".utf8))
                output.emit(notice.summary, jsonText: json)
            }
            try await NATSCommand.connect(manager)
            guard manager.connection.isConnected, await NATSInboxCommand.mailbox(of: context) != nil else {
                await manager.disconnect()
                throw CLIFailure(
                    code: "no_mailbox",
                    message: "this device has no mailbox: the server keeps none (no JetStream), or the stored token "
                        + "predates it (`vettid nats setup` issues a new one)")
            }
            // The connect started a catch-up; this one waits its turn (and pulls what came since).
            _ = await manager.catchUpMailboxNow()
            if let wait { try await Task.sleep(for: .milliseconds(Int64(wait * 1000))) }
            let arrived = manager.mailboxArrivals
            await manager.disconnect()
            context.output.emit(
                "\(arrived) notice\(arrived == 1 ? "" : "s") from the mailbox", json: ["arrived": arrived])
        }
    }

    /// The mailbox the stored token names.
    static func mailbox(of context: CLIContext) async -> MailboxAddress? {
        await NATSCommand.credentialStore(context).load()?.mailbox
    }
}
