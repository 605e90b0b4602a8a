// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import SQLKit

/// The members' data keys in `vault_data_keys`, sealed under the at-rest key ring (purpose
/// `vault-data-key-at-rest`, label `vault-data-key:<member>`), so `vettid-server keys rotate at-rest` followed by
/// `keys reseal` re-wraps them and a backup with its key ring restores them.
struct VaultDataKeyRepository: Sendable {
    /// The at-rest purpose the data keys are sealed under.
    static let purpose = "vault-data-key-at-rest"

    /// The label a member's sealed data key is bound to.
    static func label(_ memberID: String) -> String { "vault-data-key:\(memberID)" }

    let sealer: SecretSealer

    init(keys: SealingKeys) {
        sealer = SecretSealer(keys: keys, purpose: Self.purpose)
    }

    /// The member's data key, if it has one.
    /// - Throws: `StoreCorruption` when the stored key does not open (altered, or sealed under a generation the ring
    ///   no longer holds).
    func find(memberID: String, on db: any SQLDatabase) async throws -> VaultDataKey? {
        guard
            let row = try await db.raw(
                "SELECT sealed_key FROM vault_data_keys WHERE user_id = \(bind: memberID)"
            ).first()
        else { return nil }
        return try open(try row.decode(column: "sealed_key", as: String.self), memberID: memberID)
    }

    /// The member's data key, made and stored first if it has none. Inside a transaction that already locked the
    /// member's rows (``lock(memberID:on:engine:)``), two writers cannot both make one.
    func findOrCreate(memberID: String, now: Int64, on db: any SQLDatabase) async throws -> VaultDataKey {
        if let key = try await find(memberID: memberID, on: db) { return key }
        let bytes = VaultDataKey.generateBytes()
        let sealed = try sealer.seal(bytes, label: Self.label(memberID))
        try await db.raw(
            """
            INSERT INTO vault_data_keys (user_id, sealed_key, created_at) VALUES (\(bind: memberID), \(bind: sealed), \(bind: now))
            ON CONFLICT (user_id) DO NOTHING
            """
        ).run()
        // Another writer may have stored its key first: use the stored one.
        guard let stored = try await find(memberID: memberID, on: db) else {
            throw StoreCorruption(detail: "vault_data_keys lost the row just written")
        }
        return stored
    }

    /// Serializes the member's writers for the rest of the transaction (PostgreSQL: the user row's lock; SQLite
    /// transactions here are `BEGIN IMMEDIATE`, already exclusive).
    func lock(memberID: String, on db: any SQLDatabase, engine: SQLEngine) async throws {
        guard engine == .postgres else { return }
        _ = try await db.raw("SELECT id FROM users WHERE id = \(bind: memberID) FOR UPDATE").first()
    }

    private func open(_ sealed: String, memberID: String) throws -> VaultDataKey {
        guard let bytes = sealer.open(sealed, label: Self.label(memberID)) else {
            throw StoreCorruption(detail: "a member's data key does not open under the at-rest key ring")
        }
        return VaultDataKey(bytes: bytes)
    }
}
