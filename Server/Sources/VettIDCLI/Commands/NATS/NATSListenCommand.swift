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
        try await CLIContext.run(global) { context in
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
                context.output.emit(NATSCommand.human(response), jsonText: response.encoded())
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
