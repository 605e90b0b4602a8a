// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import ArgumentParser

/// The `vettid` command-line tool: the reference client for terminals.
public struct VettIDCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "vettid",
        abstract: "The VettID reference client, and a way to run the whole system locally.",
        subcommands: [
            DemoCommand.self, ServerCommand.self, RegisterCommand.self, LoginCommand.self, WhoamiCommand.self,
            LogoutCommand.self, InviteCommand.self, EnrollCommand.self, VaultAuthCommand.self, VaultCommand.self,
            NATSCommand.self, PushCommand.self, PasskeyCommand.self,
            GateCommand.self,
        ]
    )

    public init() {}
}

/// `vettid server`: exactly `vettid-server`, with every one of its subcommands (`vettid server` serves,
/// `vettid server nats-config …` writes nats-server's configuration).
public struct ServerCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "server",
        abstract: "Run the VettID backend and its operator tools (the same subcommands as vettid-server).",
        subcommands: ServerToolCommand.configuration.subcommands,
        defaultSubcommand: ServerToolCommand.configuration.defaultSubcommand
    )

    public init() {}
}
