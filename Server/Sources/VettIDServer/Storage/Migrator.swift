// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Logging
import SQLKit
import VettIDCore

/// Applies pending ``Migration``s in version order, each in its own transaction, recording them in
/// `schema_migrations`. Safe to run from several server instances at once on PostgreSQL (advisory lock).
struct Migrator: Sendable {
    let store: any SQLStore
    let migrations: [Migration]
    let logger: Logger

    init(store: any SQLStore, migrations: [Migration] = Migrations.all, logger: Logger) {
        self.store = store
        self.migrations = migrations.sorted { $0.version < $1.version }
        self.logger = logger
    }

    /// Applies what is pending and returns the versions applied by this call.
    @discardableResult
    func migrate() async throws -> [Int] {
        let engine = store.engine
        try await store.withDatabase { db in
            try await db.raw(
                """
                CREATE TABLE IF NOT EXISTS schema_migrations (
                    version \(unsafeRaw: engine.bigint) PRIMARY KEY,
                    name TEXT NOT NULL,
                    applied_at \(unsafeRaw: engine.bigint) NOT NULL
                )
                """
            ).run()
        }
        var applied: [Int] = []
        for migration in migrations {
            let didApply = try await store.transaction { db in
                if engine == .postgres {
                    // Serialises concurrent migrators; released at COMMIT/ROLLBACK.
                    try await db.raw("SELECT pg_advisory_xact_lock(7283910)").run()
                }
                let existing = try await db.raw(
                    "SELECT version FROM schema_migrations WHERE version = \(bind: migration.version)"
                ).first()
                if existing != nil { return false }
                for statement in migration.statements(engine) {
                    try await db.raw(SQLQueryString(statement)).run()
                }
                try await db.raw(
                    """
                    INSERT INTO schema_migrations (version, name, applied_at)
                    VALUES (\(bind: migration.version), \(bind: migration.name), \(bind: SystemWallClock().unixSeconds()))
                    """
                ).run()
                return true
            }
            if didApply {
                logger.info(
                    "applied migration", metadata: ["version": "\(migration.version)", "name": "\(migration.name)"])
                applied.append(migration.version)
            }
        }
        return applied
    }
}
