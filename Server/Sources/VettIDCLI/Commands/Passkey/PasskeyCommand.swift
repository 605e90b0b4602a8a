// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import ArgumentParser
import Foundation
import VettIDClient
import VettIDCrypto

/// `vettid passkey`: the signed-in member's passkeys, made by the CLI's software authenticator (a P-256 key per
/// passkey in the profile's encrypted store; docs/sdk.md "Passkeys").
public struct PasskeyCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "passkey",
        abstract: "Add, list and remove the signed-in member's passkeys (then: vettid login --passkey).",
        subcommands: [PasskeyAddCommand.self, PasskeyListCommand.self, PasskeyRemoveCommand.self]
    )

    public init() {}

    /// The profile's software authenticator: its keys live in the profile's store, its origin is the server's.
    @MainActor
    static func authenticator(_ context: CLIContext) -> SoftwarePasskeyAuthenticator {
        SoftwarePasskeyAuthenticator(
            store: context.store, serverURL: context.serverURL,
            storageKey: "profile.\(context.options.profile).passkeys")
    }
}

/// The `--output json` form of a passkey.
struct PasskeyJSON: Encodable {
    let id: String
    let name: String
    let created_at: Date
    let last_used_at: Date?
    let synced: Bool

    init(_ passkey: MemberPasskey) {
        id = passkey.id
        name = passkey.name
        created_at = passkey.createdAt
        last_used_at = passkey.lastUsedAt
        synced = passkey.isSynced
    }
}

/// `vettid passkey add [--name NAME]`.
public struct PasskeyAddCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Create a passkey in this profile and add it to the signed-in member.")

    @OptionGroup var global: GlobalOptions
    @Option(help: "What to call the passkey (default: the server's \"Passkey added <date>\").") var name: String?

    public init() {}

    @MainActor
    public func run() async throws {
        try await CLIContext.run(global) { context in
            let passkey = try await context.auth.addPasskey(
                named: name, using: PasskeyCommand.authenticator(context))
            context.output.emit("passkey added: \(passkey.name) (\(passkey.id))", json: PasskeyJSON(passkey))
        }
    }
}

/// `vettid passkey list`.
public struct PasskeyListCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "list", abstract: "List the signed-in member's passkeys (from any device).")

    @OptionGroup var global: GlobalOptions

    public init() {}

    @MainActor
    public func run() async throws {
        try await CLIContext.run(global) { context in
            let passkeys = try await context.auth.passkeys()
            let lines = passkeys.map { passkey in
                let used = passkey.lastUsedAt.map { "last used \($0.formatted(.iso8601))" } ?? "never used"
                return "\(passkey.id)  \(passkey.name)  \(used)\(passkey.isSynced ? "  synced" : "")"
            }
            context.output.emit(
                passkeys.isEmpty ? "no passkeys" : lines.joined(separator: "\n"), json: passkeys.map(PasskeyJSON.init))
        }
    }
}

/// `vettid passkey rm ID`.
public struct PasskeyRemoveCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "rm",
        abstract: "Remove one of the member's passkeys (and forget it here if this profile holds it).")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "The passkey's id, as `vettid passkey list` shows it.") var id: String

    public init() {}

    @MainActor
    public func run() async throws {
        try await CLIContext.run(global) { context in
            try await context.auth.removePasskey(id: id)
            if let credentialID = Base64URL.decode(id) {
                try await PasskeyCommand.authenticator(context).forget(credentialID: credentialID)
            }
            context.output.emit("passkey removed", json: ["removed": id])
        }
    }
}
