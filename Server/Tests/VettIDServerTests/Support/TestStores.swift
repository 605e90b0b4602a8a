// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Logging
import NIOConcurrencyHelpers
import SQLKit
import Testing
import VettIDCore

@testable import VettIDServer

/// The SQL engines a storage test runs on: SQLite always, PostgreSQL when the test script started one
/// (`VETTID_TEST_DATABASE_URL`). `scripts/test` always starts it, so CI runs both.
enum TestEngine: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres

    var testDescription: String { rawValue }

    static let postgresURL = ProcessInfo.processInfo.environment["VETTID_TEST_DATABASE_URL"]

    /// Engines available in this run.
    static var available: [TestEngine] { postgresURL == nil ? [.sqlite] : [.sqlite, .postgres] }
}

/// A migrated, empty store of one engine, private to one test.
struct TestStore {
    let store: any SQLStore
    let directory: String

    static func make(_ engine: TestEngine, logger: Logger = Logger(label: "test")) async throws -> TestStore {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "vettid-test-\(UUID().uuidString)"
        ).path
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let store: any SQLStore
        switch engine {
        case .sqlite:
            store = try await SQLiteStore.open(path: directory + "/vettid.sqlite", logger: logger)
        case .postgres:
            let base = try #require(TestEngine.postgresURL)
            let schema = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
            // Dozens of suites start at once on two cores: a generous lease timeout for both connections (the fault
            // tests use the default); a first connection took longer than the default 3 s on a loaded CI run.
            let admin = try PostgresStore(url: base, leaseTimeout: .seconds(30), logger: logger)
            try await admin.withDatabase { db in try await db.raw("CREATE SCHEMA \(unsafeRaw: schema)").run() }
            try await admin.shutdown()
            store = try PostgresStore(url: base + "&search_path=\(schema)", leaseTimeout: .seconds(30), logger: logger)
        }
        try await Migrator(store: store, logger: logger).migrate()
        return TestStore(store: store, directory: directory)
    }

    func tearDown() async throws {
        try await store.shutdown()
        try? FileManager.default.removeItem(atPath: directory)
    }
}

/// Runs `body` with a fresh store of `engine` and tears the store down afterwards, whether `body` throws or not.
func withTestStore<Result>(
    _ engine: TestEngine, _ body: (any SQLStore) async throws -> Result
) async throws -> Result {
    let test = try await TestStore.make(engine)
    do {
        let result = try await body(test.store)
        try await test.tearDown()
        return result
    } catch {
        try? await test.tearDown()
        throw error
    }
}
