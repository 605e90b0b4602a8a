// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import ArgumentParser
import Foundation
import Logging
import VettIDServer

/// `vettid-server backup`: the data directory's secrets and, on SQLite, a consistent copy of the database.
public struct BackupCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Back up the keys, the key ring, the NATS trust and (SQLite) the database, while the server runs.",
        discussion: """
            The output directory is as secret as the data directory (0700, files 0600). On PostgreSQL, back the \
            database up with pg_dump as well (docs/operations.md, "Backup and restore").
            """
    )

    @OptionGroup var options: ServerOptions
    @Option(help: "An empty or new directory for the backup.") var output: String

    public init() {}

    public func run() async throws {
        let configuration = try options.loadConfiguration()
        let logger = Logger.process(label: "vettid-server", level: .warning)
        let files = try await ServerBackup.write(configuration: configuration, to: output, logger: logger)
        print("backed up to \(output): \(files.joined(separator: ", "))")
        if configuration.databaseURL != nil {
            print("PostgreSQL: also run pg_dump --format=custom (see docs/operations.md)")
        }
    }
}
