// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import ArgumentParser
import Foundation
import VettIDClient
import VettIDMessaging

/// `vettid vault secret put|get|list|rm`: the member's secrets, kept sealed in the vault.
public struct VaultSecretCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "secret",
        abstract: "Store, read, list or delete the member's secrets in the vault (sealed end to end).",
        discussion: """
            Every request goes over a sealed session between this profile's device and its vault (needs `vettid nats \
            setup`). Reading a value needs a vault authentication of this device within the server's window \
            (`vault_secret_read_window_seconds`, default 300 s): `get` asks for the vault password when it is older.
            """,
        subcommands: [Put.self, Get.self, List.self, Remove.self]
    )

    public init() {}

    /// A secret without its value, in `--output json`.
    struct Summary: Encodable {
        let name: String
        let version: Int64
        let size: Int
        let updatedAt: Date

        init(_ summary: SecretSummary) {
            name = summary.name
            version = summary.version
            size = summary.size
            updatedAt = Date(timeIntervalSince1970: Double(summary.updatedAt) / 1000)
        }
    }

    static func human(_ summary: SecretSummary) -> String {
        "\(summary.name): version \(summary.version), \(summary.size) bytes, updated "
            + ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: Double(summary.updatedAt) / 1000))
    }

    /// `vettid vault secret put NAME [VALUE]`.
    public struct Put: AsyncParsableCommand {
        public static let configuration = CommandConfiguration(
            commandName: "put",
            abstract: "Store a value under a name (the next version when the name exists).",
            discussion: """
                Without VALUE the value is read from standard input (keeps it out of the shell history); one trailing \
                newline is dropped, as `echo` and a terminal add it.
                """)

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The secret's name (1 to 128 bytes).") var name: String
        @Argument(help: "The value; omitted: read from standard input.") var value: String?
        @Flag(help: "Refuse if the name already exists.") var new = false
        @Option(help: "Replace only this version (else version_conflict).") var expectVersion: Int64?

        public init() {}

        /// `data` without one trailing `\n` or `\r\n`.
        static func withoutTrailingNewline(_ data: Data) -> Data {
            var data = data
            guard data.last == 0x0A else { return data }
            data.removeLast()
            if data.last == 0x0D { data.removeLast() }
            return data
        }

        @MainActor
        public func run() async throws {
            try await CLIContext.run(global) { context in
                let bytes =
                    value.map { Data($0.utf8) }
                    ?? Self.withoutTrailingNewline(
                        FileHandle.standardInput.readDataToEndOfFile())
                let summary = try await VaultDataConnection.run(context) { service in
                    try await service.secrets.put(
                        name: name, value: bytes, expectedVersion: new ? 0 : expectVersion)
                }
                context.output.emit("stored " + VaultSecretCommand.human(summary), json: Summary(summary))
            }
        }
    }

    /// `vettid vault secret get NAME`.
    public struct Get: AsyncParsableCommand {
        public static let configuration = CommandConfiguration(
            commandName: "get", abstract: "Print a secret's value (asks for the vault password when needed).")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The secret's name.") var name: String

        public init() {}

        /// The `--output json` result: `value` when it is UTF-8 text, `value_base64` always.
        struct Result: Encodable {
            let name: String
            let value: String?
            let valueBase64: String
            let version: Int64
            let updatedAt: Date
        }

        @MainActor
        public func run() async throws {
            try await CLIContext.run(global) { context in
                let secret = try await VaultDataConnection.run(context) { service in
                    try await VaultDataConnection.afterVaultAuthentication(service) {
                        () async throws(VaultMessageError) in
                        try await service.secrets.get(name: name)
                    }
                }
                let text = String(data: secret.value, encoding: .utf8)
                context.output.emit(
                    text ?? secret.value.base64EncodedString(),
                    json: Result(
                        name: secret.name, value: text, valueBase64: secret.value.base64EncodedString(),
                        version: secret.version,
                        updatedAt: Date(timeIntervalSince1970: Double(secret.updatedAt) / 1000)))
            }
        }
    }

    /// `vettid vault secret list`.
    public struct List: AsyncParsableCommand {
        public static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List the secrets' names, versions and sizes (no values).")

        @OptionGroup var global: GlobalOptions

        public init() {}

        /// The `--output json` result.
        struct Result: Encodable {
            let secrets: [Summary]
            let totalBytes: Int
            let limits: VaultDataLimits
        }

        @MainActor
        public func run() async throws {
            try await CLIContext.run(global) { context in
                let list = try await VaultDataConnection.run(context) { service in try await service.secrets.list() }
                let lines =
                    list.secrets.isEmpty
                    ? ["no secrets"]
                    : list.secrets.map(VaultSecretCommand.human)
                        + [
                            "\(list.secrets.count) of \(list.limits.maxSecrets) secrets, "
                                + "\(list.totalBytes) of \(list.limits.maxTotalBytes) bytes"
                        ]
                context.output.emit(
                    lines.joined(separator: "\n"),
                    json: Result(
                        secrets: list.secrets.map(Summary.init), totalBytes: list.totalBytes, limits: list.limits))
            }
        }
    }

    /// `vettid vault secret rm NAME`.
    public struct Remove: AsyncParsableCommand {
        public static let configuration = CommandConfiguration(
            commandName: "rm", abstract: "Delete a secret: its value is gone from the vault's store.")

        @OptionGroup var global: GlobalOptions
        @Argument(help: "The secret's name.") var name: String
        @Option(help: "Delete only this version (else version_conflict).") var expectVersion: Int64?

        public init() {}

        @MainActor
        public func run() async throws {
            try await CLIContext.run(global) { context in
                let deleted = try await VaultDataConnection.run(context) { service in
                    try await service.secrets.delete(name: name, expectedVersion: expectVersion)
                }
                context.output.emit("deleted " + VaultSecretCommand.human(deleted), json: Summary(deleted))
            }
        }
    }
}
