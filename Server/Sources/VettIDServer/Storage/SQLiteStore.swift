// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Logging
import NIOPosix
public import SQLKit
import SQLiteKit

/// The embedded default store: one SQLite connection in WAL mode, every use serialised.
public final class SQLiteStore: SQLStore {
    public let engine = SQLEngine.sqlite
    private let connection: SQLiteConnection
    private let database: any SQLDatabase
    private let lock = AsyncSerialLock()

    private init(connection: SQLiteConnection, logger: Logger) {
        self.connection = connection
        self.database = connection.sql(queryLogLevel: .trace)
    }

    /// How a commit reaches the disk.
    public enum Durability: String, Sendable {
        /// `synchronous=FULL`: every commit is fsynced; committed data survives a power loss.
        case full = "FULL"
        /// `synchronous=NORMAL` in WAL mode: commits are written to the WAL without an fsync. They survive a crash
        /// of the process; a power loss or OS crash can lose the last ones. Used for the DPoP replay store only.
        case normal = "NORMAL"
    }

    /// Opens (creating if needed) the database file at `path`; `nil` opens a private in-memory database.
    public static func open(path: String?, durability: Durability = .full, logger: Logger) async throws -> SQLiteStore {
        let storage: SQLiteConnection.Storage = path.map { .file(path: $0) } ?? .memory
        let connection = try await SQLiteConnection.open(
            storage: storage,
            threadPool: NIOThreadPool.singleton,
            logger: logger,
            on: MultiThreadedEventLoopGroup.singleton.any()
        ).get()
        let store = SQLiteStore(connection: connection, logger: logger)
        let sql = store.database
        // WAL keeps readers and the writer apart and survives a crash with every committed transaction.
        if path != nil { try await sql.raw("PRAGMA journal_mode=WAL").run() }
        try await sql.raw("PRAGMA synchronous=\(unsafeRaw: durability.rawValue)").run()
        try await sql.raw("PRAGMA foreign_keys=ON").run()
        try await sql.raw("PRAGMA busy_timeout=5000").run()
        // A deleted row's bytes are overwritten, not left in free pages: a deleted secret is gone from the file.
        try await sql.raw("PRAGMA secure_delete=ON").run()
        return store
    }

    public func withDatabase<Result: Sendable>(
        _ body: @Sendable (any SQLDatabase) async throws -> Result
    ) async throws -> Result {
        try await lock.withLock { try await body(database) }
    }

    public func transaction<Result: Sendable>(
        _ body: @Sendable (any SQLDatabase) async throws -> Result
    ) async throws -> Result {
        try await lock.withLock {
            // IMMEDIATE takes the write lock at BEGIN, so a transaction never fails half-way on a busy database.
            try await Self.runTransaction(on: database, begin: "BEGIN IMMEDIATE", body)
        }
    }

    public func shutdown() async throws {
        try await lock.withLock { try await connection.close() }
    }
}
