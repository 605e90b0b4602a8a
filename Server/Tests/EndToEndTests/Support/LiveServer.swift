// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Logging
import SQLKit
import VettIDCore
import VettIDServer

/// A real backend listening on a free loopback port, with SQLite (or the test PostgreSQL) and fast Argon2.
struct LiveServer {
    let baseURL: URL
    let components: ServerComponents
    let runtime: ServerRuntime
    let task: Task<Void, any Error>
    let directory: URL

    nonisolated(nonsending) static func withServer<Result>(
        postgres: Bool = false,
        clock: any WallClock = SystemWallClock(),
        configure: (inout ServerConfiguration) -> Void = { _ in },
        _ body: (LiveServer) async throws -> Result
    ) async throws -> Result {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vettid-e2e-\(UUID().uuidString)")
        var configuration = ServerConfiguration(
            host: "127.0.0.1", port: 0, dataDirectory: directory.appendingPathComponent("data").path)
        configuration.argon2 = .testing
        if postgres, let url = ProcessInfo.processInfo.environment["VETTID_TEST_DATABASE_URL"] {
            configuration.databaseURL = try await PostgresSchema.create(baseURL: url)
            configuration.databaseLeaseTimeout = .seconds(30)  // many suites start at once on two cores
        }
        configure(&configuration)
        var logger = Logger(label: "e2e-server")
        logger.logLevel = .error
        let components = try await ServerComponents.make(configuration: configuration, logger: logger, clock: clock)
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let runtime = try ServerRuntime(components: components, handlingSignals: false) { continuation.yield($0) }
        let task = Task { try await runtime.run() }
        guard let port = await ports.first(where: { _ in true }) else { throw E2EFailure("server did not start") }
        let server = LiveServer(
            baseURL: URL(string: "http://127.0.0.1:\(port)")!, components: components, runtime: runtime, task: task,
            directory: directory
        )
        do {
            let result = try await body(server)
            await server.stop()
            return result
        } catch {
            await server.stop()
            throw error
        }
    }

    func stop() async {
        await runtime.shutdown()
        _ = try? await task.value
        try? FileManager.default.removeItem(at: directory)
    }
}

/// Creates a private schema in the test PostgreSQL and returns a URL that uses it.
enum PostgresSchema {
    static func create(baseURL: String) async throws -> String {
        let schema = "e2e_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let admin = try PostgresStore(url: baseURL, leaseTimeout: .seconds(30), logger: Logger(label: "e2e-admin"))
        try await admin.withDatabase { db in try await db.raw("CREATE SCHEMA \(unsafeRaw: schema)").run() }
        try await admin.shutdown()
        return baseURL + "&search_path=\(schema)"
    }
}

struct E2EFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
