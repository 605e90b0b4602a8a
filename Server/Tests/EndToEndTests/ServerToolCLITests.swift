// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing
import VettIDServer

/// `vettid server keys …`, `backup` and `restore` as an operator runs them: the built binary on a data directory.
@Suite(.enabled(if: CLITests.vettid != nil, "the vettid executable was not built"))
struct ServerToolCLITests {
    @Test func keysRotateListPruneAndRemoveThroughTheBinary() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("vettid-keys-cli-\(UUID())")
        defer { try? FileManager.default.removeItem(at: root) }
        let data = root.appendingPathComponent("data").path
        let cli = CLITests()
        func run(_ arguments: [String]) async throws -> CLITests.Run {
            try await cli.run(["server"] + arguments + ["--data-dir", data], configDirectory: root)
        }
        let rotated = try await run(["keys", "rotate", "token-signing", "--activation-delay", "0"])
        #expect(rotated.status == 0, "\(rotated.stderr)")
        #expect(rotated.stdout.contains("token-signing: generation 2 added"))
        #expect(try KeyRingFile.load(dataDirectory: data)[.tokenSigning].generations.map(\.number) == [1, 2])

        let pending = try await run(["keys", "rotate", "nats-signing"])
        #expect(pending.status == 0)
        let again = try await run(["keys", "rotate", "nats-signing"])
        #expect(again.status != 0, "a second rotation waits for the first to activate")
        #expect(again.stderr.contains("activates in"), "\(again.stderr)")

        let list = try await run(["keys", "list"])
        #expect(list.status == 0)
        #expect(list.stdout.contains("2  current since"), "\(list.stdout)")
        #expect(list.stdout.contains("pending: verifies now"), "\(list.stdout)")

        // Generation 1 was superseded a moment ago: a prune keeps it (tokens it signed may still be valid), a
        // remove drops it; the current generation cannot be removed.
        #expect(try await run(["keys", "prune", "token-signing"]).stdout.contains("nothing to prune"))
        #expect(try await run(["keys", "remove", "token-signing", "2"]).status != 0)
        #expect(try await run(["keys", "remove", "token-signing", "1"]).status == 0)
        #expect(try KeyRingFile.load(dataDirectory: data)[.tokenSigning].generations.map(\.number) == [2])
        #expect(try await run(["keys", "prune", "at-rest"]).status != 0, "at-rest generations go with reseal")
    }

    @Test func backupAndRestoreThroughTheBinary() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("vettid-backup-cli-\(UUID())")
        defer { try? FileManager.default.removeItem(at: root) }
        let cli = CLITests()
        let data = root.appendingPathComponent("data").path
        // `nats-config` creates the keys, the NATS trust and the database, as a first start would.
        let config = try await cli.run(
            ["server", "nats-config", "--data-dir", data, "--output", root.appendingPathComponent("n.conf").path],
            configDirectory: root)
        #expect(config.status == 0, "\(config.stderr)")
        let backup = root.appendingPathComponent("backup").path
        let made = try await cli.run(
            ["server", "backup", "--data-dir", data, "--output", backup], configDirectory: root)
        #expect(made.status == 0, "\(made.stderr)")
        for file in ["keys/master.key", "keys/access-token.p256", "nats/trust.json", "vettid.sqlite", "manifest.json"] {
            #expect(made.stdout.contains(file), "\(file) in \(made.stdout)")
        }
        let restoredData = root.appendingPathComponent("restored").path
        let restored = try await cli.run(
            ["server", "restore", "--data-dir", restoredData, "--from", backup], configDirectory: root)
        #expect(restored.status == 0, "\(restored.stderr)")
        #expect(
            FileManager.default.contents(atPath: restoredData + "/keys/master.key")
                == FileManager.default.contents(atPath: data + "/keys/master.key"))
        let over = try await cli.run(
            ["server", "restore", "--data-dir", data, "--from", backup], configDirectory: root)
        #expect(over.status != 0, "a data directory with keys is not overwritten")
    }
}
