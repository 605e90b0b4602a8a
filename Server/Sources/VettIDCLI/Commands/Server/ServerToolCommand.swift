// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import ArgumentParser

/// The `vettid-server` executable: the backend and its operator tools.
public struct ServerToolCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "vettid-server",
        abstract: "The VettID reference backend.",
        subcommands: [
            ServeCommand.self, NATSConfigCommand.self, KeysCommand.self, BackupCommand.self, RestoreCommand.self,
        ],
        defaultSubcommand: ServeCommand.self
    )

    public init() {}
}
