// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// One versioned schema change, written once per engine where the SQL differs.
struct Migration: Sendable {
    /// Strictly increasing version; recorded in `schema_migrations` once applied.
    let version: Int
    /// A short human name for logs.
    let name: String
    /// Statements run in order inside one transaction.
    let statements: @Sendable (SQLEngine) -> [String]
}

extension SQLEngine {
    /// The integer type used for unix-second timestamps and counters.
    var bigint: String { self == .sqlite ? "INTEGER" : "BIGINT" }
    /// The type used for binary blobs.
    var bytes: String { self == .sqlite ? "BLOB" : "BYTEA" }
}
