// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import ArgumentParser
import Foundation
import VettIDClient
import VettIDMessaging

/// `vettid vault profile [--set NAME=VALUE ...] [--remove NAME ...]`: the member's profile kept in the vault.
public struct VaultProfileCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "profile",
        abstract: "Show or change the member's profile kept in the vault (sealed end to end).",
        discussion: """
            Without options, prints the profile. Field names are 1 to 64 characters a-z, 0-9, '_', '.', '-' \
            starting with a letter; values at most 1 KiB.
            """)

    @OptionGroup var global: GlobalOptions
    @Option(name: .customLong("set"), help: "Set a field (NAME=VALUE); repeatable.") var assignments: [String] = []
    @Option(name: .customLong("remove"), help: "Remove a field; repeatable.") var removals: [String] = []

    public init() {}

    /// The `--output json` result.
    struct Result: Encodable {
        let fields: [String: String]
        let version: Int64
        let updatedAt: Date?
    }

    @MainActor
    public func run() async throws {
        try await CLIContext.run(global) { context in
            var fields: [String: String] = [:]
            for assignment in assignments {
                guard let equals = assignment.firstIndex(of: "=") else {
                    throw CLIFailure(code: "invalid_profile", message: "--set takes NAME=VALUE, got '\(assignment)'")
                }
                fields[String(assignment[..<equals])] = String(assignment[assignment.index(after: equals)...])
            }
            let profile = try await VaultDataConnection.run(context) { service in
                if fields.isEmpty && removals.isEmpty { return try await service.profile.get() }
                return try await service.profile.update(set: fields, remove: removals)
            }
            let lines =
                profile.fields.isEmpty
                ? ["no profile fields (version \(profile.version))"]
                : profile.fields.keys.sorted().map { "\($0): \(profile.fields[$0] ?? "")" }
                    + ["version \(profile.version)"]
            context.output.emit(
                lines.joined(separator: "\n"),
                json: Result(
                    fields: profile.fields, version: profile.version,
                    updatedAt: profile.updatedAt.map { Date(timeIntervalSince1970: Double($0) / 1000) }))
        }
    }
}
