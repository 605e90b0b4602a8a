// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import ArgumentParser
import Foundation
import Logging
import VettIDServer

/// Runs the VettID backend until SIGINT or SIGTERM.
public struct ServeCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the VettID backend (HTTP API) until interrupted."
    )

    @OptionGroup var options: ServerOptions

    public init() {}

    public func run() async throws {
        let configuration = try options.loadConfiguration()
        let logger = Logger.process(
            label: "vettid-server", level: configuration.logLevel, format: configuration.logFormat)
        let components = try await ServerComponents.make(configuration: configuration, logger: logger)
        try await ServerRuntime(components: components) { port in
            logger.notice(
                "listening",
                metadata: [
                    "address": "http://\(configuration.host):\(port)",
                    "database":
                        "\(configuration.databaseURL == nil ? "sqlite \(configuration.sqlitePath)" : "postgres")",
                ]
            )
        }.run()
    }
}
