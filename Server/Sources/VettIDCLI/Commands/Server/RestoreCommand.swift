// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import ArgumentParser
import Foundation
import Logging
import VettIDServer

/// `vettid-server restore`: a backup into an empty data directory.
public struct RestoreCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Restore a backup into an empty data directory (--data-dir), checking every file first."
    )

    @OptionGroup var options: ServerOptions
    @Option(help: "The backup directory.") var from: String

    public init() {}

    public func run() throws {
        let configuration = try options.loadConfiguration()
        let engine = try ServerBackup.restore(from: from, into: configuration.dataDirectory)
        print("restored \(from) into \(configuration.dataDirectory)")
        if engine == "postgres" {
            print("PostgreSQL: restore the database with pg_restore before starting (see docs/operations.md)")
        }
    }
}
