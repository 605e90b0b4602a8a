// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import SQLKit

/// Moves every secret sealed at rest to the current generation of the at-rest keys, so older generations can be
/// dropped (`vettid-server keys reseal`).
///
/// Each value is opened with the generation it names and sealed again under the current one, in batches, with a
/// compare-and-set update: a value changed meanwhile (a credential rotated by an authentication) is left to its
/// new writer, which sealed it under the current generation anyway. Running servers keep working throughout.
public struct AtRestResealer: Sendable {
    /// What a run did.
    public struct Report: Sendable, Equatable {
        /// Values sealed again under the current generation.
        public var resealed = 0
        /// Values that name a generation the ring no longer holds, or do not open (left as they are).
        public var unreadable = 0
    }

    /// A table column holding sealed values, and how to rebuild each value's label.
    struct SealedColumn: Sendable {
        let table: String
        let keyColumn: String
        let column: String
        let purpose: String
        /// Extra columns the label needs, selected with the row.
        let labelColumns: [String]
        let label: @Sendable (_ key: String, _ row: any SQLRow) throws -> String
    }

    static let columns: [SealedColumn] = [
        SealedColumn(
            table: "vault_credentials", keyColumn: "credential_id", column: "sealed_key",
            purpose: "credential-key-at-rest", labelColumns: ["key_version"]
        ) { key, row in
            CredentialKeyring.label(credentialID: key, version: try row.decode(column: "key_version", as: Int64.self))
        },
        SealedColumn(
            table: "transaction_keys", keyColumn: "key_id", column: "sealed_private_key",
            purpose: "transaction-key-at-rest", labelColumns: []
        ) { key, _ in TransactionKeyRepository.label(key) },
        SealedColumn(
            table: "vault_data_keys", keyColumn: "user_id", column: "sealed_key",
            purpose: VaultDataKeyRepository.purpose, labelColumns: []
        ) { key, _ in VaultDataKeyRepository.label(key) },
    ]

    let store: any SQLStore
    let keys: SealingKeys
    let batchSize: Int

    public init(store: any SQLStore, keys: SealingKeys, batchSize: Int = 500) {
        self.store = store
        self.keys = keys
        self.batchSize = max(1, batchSize)
    }

    /// Reseals every value not under the current generation.
    public func reseal() async throws -> Report {
        var report = Report()
        for column in Self.columns {
            let sealer = SecretSealer(keys: keys, purpose: column.purpose)
            var after = ""
            while true {
                let current = keys.current(column.purpose).generation
                let batch = try await store.withDatabase { [batchSize, after] db in
                    try await db.raw(
                        """
                        SELECT \(unsafeRaw: ([column.keyColumn, column.column] + column.labelColumns).joined(separator: ", "))
                        FROM \(unsafeRaw: column.table)
                        WHERE \(unsafeRaw: column.keyColumn) > \(bind: after) AND \(Self.notUnder(current, column.column))
                        ORDER BY \(unsafeRaw: column.keyColumn) LIMIT \(literal: batchSize)
                        """
                    ).all()
                }
                guard !batch.isEmpty else { break }
                for row in batch {
                    let key = try row.decode(column: column.keyColumn, as: String.self)
                    after = key
                    let old = try row.decode(column: column.column, as: String.self)
                    let label = try column.label(key, row)
                    guard let secret = sealer.open(old, label: label) else {
                        report.unreadable += 1
                        continue
                    }
                    let new = try sealer.seal(secret, label: label)
                    let updated = try await store.withDatabase { db in
                        try await db.raw(
                            """
                            UPDATE \(unsafeRaw: column.table) SET \(unsafeRaw: column.column) = \(bind: new)
                            WHERE \(unsafeRaw: column.keyColumn) = \(bind: key) AND \(unsafeRaw: column.column) = \(bind: old)
                            RETURNING \(unsafeRaw: column.keyColumn)
                            """
                        ).first()
                    }
                    if updated != nil { report.resealed += 1 }
                }
            }
        }
        return report
    }

    /// How many stored values name each of the ring's generations.
    public func census() async throws -> [Int: Int] {
        var counts: [Int: Int] = [:]
        for generation in keys.ring.generations.map(\.number) {
            for column in Self.columns {
                let count = try await store.withDatabase { db in
                    try await db.raw(
                        """
                        SELECT COUNT(*) AS n FROM \(unsafeRaw: column.table)
                        WHERE \(Self.under(generation, column.column))
                        """
                    ).first()?.decode(column: "n", as: Int.self) ?? 0
                }
                counts[generation, default: 0] += count
            }
        }
        return counts
    }

    /// Values sealed under `generation` (generation 1 has no prefix; base64url has no `.`).
    static func under(_ generation: Int, _ column: String) -> SQLQueryString {
        generation == 1
            ? "\(unsafeRaw: column) NOT LIKE '%.%'" : "\(unsafeRaw: column) LIKE \(bind: "g\(generation).%")"
    }

    static func notUnder(_ generation: Int, _ column: String) -> SQLQueryString {
        generation == 1
            ? "\(unsafeRaw: column) LIKE '%.%'" : "\(unsafeRaw: column) NOT LIKE \(bind: "g\(generation).%")"
    }
}
