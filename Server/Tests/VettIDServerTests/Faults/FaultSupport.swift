// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import VettIDTestSupport

@testable import VettIDServer

/// Runs a command to its exit on a thread of its own (``onOwnThread(_:)``: `pg_ctl start` takes seconds, and the
/// server under test needs the cooperative pool meanwhile); returns its exit status.
@discardableResult
func runCommand(_ arguments: [String], asPostgres: Bool = false) async throws -> Int32 {
    try await onOwnThread { try runCommandBlocking(arguments, asPostgres: asPostgres) }
}

/// Runs a command and waits on the calling thread; returns its exit status. Uses posix_spawn and waitpid:
/// Foundation's `Process.waitUntilExit` can hang on Linux when the command leaves a daemon behind (`pg_ctl start`).
@discardableResult
func runCommandBlocking(_ arguments: [String], asPostgres: Bool = false) throws -> Int32 {
    let argv = asPostgres && getuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--"] + arguments : arguments
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let cArguments = argv.map { strdup($0) } + [nil]
    defer { cArguments.forEach { free($0) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, argv[0], &actions, nil, cArguments, environ)
    guard spawned == 0 else { throw FaultTestError("posix_spawn \(argv[0]) failed: \(spawned)") }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
}

/// A PostgreSQL cluster of one test's own on a free loopback port, so stopping it disturbs no other test.
struct PrivatePostgres {
    let bin: String
    let directory: String
    let port: Int

    /// The newest server binaries under /usr/lib/postgresql, if installed.
    static let binDirectory: String? = {
        let base = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: base)) ?? [])
            .compactMap(Int.init).sorted()
        return versions.last.map { "\(base)/\($0)/bin" }
    }()

    var url: String { "postgres://postgres@127.0.0.1:\(port)/vettid?sslmode=disable" }

    static func create() async throws -> PrivatePostgres {
        guard let bin = binDirectory else { throw FaultTestError("PostgreSQL server binaries are not installed") }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vettid-fault-pg-\(UUID())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        if getuid() == 0 { try await runCommand(["/bin/chown", "postgres:postgres", directory]) }
        guard
            try await runCommand(
                ["\(bin)/initdb", "-D", directory + "/data", "-A", "trust", "-U", "postgres", "--no-sync"],
                asPostgres: true) == 0
        else { throw FaultTestError("initdb failed") }
        let server = PrivatePostgres(bin: bin, directory: directory, port: try LoopbackPort.reserve())
        try await server.start()
        guard
            try await runCommand(
                ["\(bin)/createdb", "-h", "127.0.0.1", "-p", "\(server.port)", "-U", "postgres", "vettid"],
                asPostgres: true) == 0
        else { throw FaultTestError("createdb failed") }
        return server
    }

    func start() async throws {
        let options = "-p \(port) -k \(directory) -c listen_addresses=127.0.0.1 -c fsync=off"
        guard
            try await runCommand(
                [
                    "\(bin)/pg_ctl", "-D", directory + "/data", "-l", directory + "/log", "-w", "-t", "60", "-o",
                    options, "start",
                ], asPostgres: true) == 0
        else { throw FaultTestError("pg_ctl start failed") }
    }

    private var stopCommand: [String] { ["\(bin)/pg_ctl", "-D", directory + "/data", "-m", "immediate", "-w", "stop"] }

    /// Stops the server at once, as a crash or a kill would (`-m immediate`).
    func stop() async throws {
        try await runCommand(stopCommand, asPostgres: true)
    }

    /// Stops the server (`-m immediate`, at once) on the calling thread and removes its directory: for `defer`.
    func remove() {
        _ = try? runCommandBlocking(stopCommand, asPostgres: true)
        try? FileManager.default.removeItem(atPath: directory)
    }
}

struct FaultTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Runs `body` against a server built over `store` (fast Argon2, ephemeral keys).
func withServer(
    store: any SQLStore, configuration: ServerConfiguration = TestApp.configuration(),
    _ body: @escaping @Sendable (any TestClientProtocol, ServerComponents) async throws -> Void
) async throws {
    let components = try await ServerComponents.make(
        configuration: configuration, store: store, keys: .ephemeral(), logger: Logger(label: "fault"))
    let app = try buildApplication(components: components)
    try await app.test(.router) { client in try await body(client, components) }
}
