// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import SQLKit

/// Which SQL engine a store talks to; migrations and a few queries differ by dialect.
public enum SQLEngine: String, Sendable {
    case sqlite
    case postgres
}

/// The one SQL layer of the server: SQLite and PostgreSQL behind the same SQLKit interface.
///
/// Repositories receive an `any SQLDatabase` inside ``withDatabase(_:)`` or ``transaction(_:)`` and write
/// portable SQL; where the engines differ they switch on ``engine``.
public protocol SQLStore: Sendable {
    /// The engine behind this store.
    var engine: SQLEngine { get }

    /// Runs `body` with a database handle outside any explicit transaction.
    func withDatabase<Result: Sendable>(
        _ body: @Sendable (any SQLDatabase) async throws -> Result
    ) async throws -> Result

    /// Runs `body` inside one transaction: committed when `body` returns, rolled back when it throws.
    func transaction<Result: Sendable>(
        _ body: @Sendable (any SQLDatabase) async throws -> Result
    ) async throws -> Result

    /// Releases connections. The store must not be used afterwards.
    func shutdown() async throws
}

extension SQLStore {
    /// Runs `body` inside a transaction on a handle that is already open (no nesting), opened with `begin`.
    static func runTransaction<Result: Sendable>(
        on database: any SQLDatabase,
        begin: SQLQueryString = "BEGIN",
        _ body: @Sendable (any SQLDatabase) async throws -> Result
    ) async throws -> Result {
        try await database.raw(begin).run()
        do {
            let result = try await body(database)
            try await database.raw("COMMIT").run()
            return result
        } catch {
            try? await database.raw("ROLLBACK").run()
            throw error
        }
    }
}
