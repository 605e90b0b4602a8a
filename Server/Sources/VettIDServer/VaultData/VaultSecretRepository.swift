// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import SQLKit
import VettIDCore
import VettIDMessaging

/// The members' secrets in `vault_secrets`, sealed under each member's ``VaultDataKey``.
///
/// A row holds the member, the name's HMAC (`name_id`), the version, the value's size, when it was stored, and
/// `sealed`: `u16 name length ‖ name ‖ value` sealed bound to `vault-secret:<member>:<name_id>:<version>`. Neither
/// the name nor the value is in the clear; a deleted secret's row is deleted (SQLite with `secure_delete`, so its
/// bytes are overwritten). Writes run in one transaction that holds the member's lock, so the count and byte limits
/// hold under concurrent writers.
struct VaultSecretRepository: Sendable {
    let store: any SQLStore
    let dataKeys: VaultDataKeyRepository
    let limits: VaultDataLimits

    init(store: any SQLStore, keys: SealingKeys, limits: VaultDataLimits) {
        self.store = store
        self.dataKeys = VaultDataKeyRepository(keys: keys)
        self.limits = limits
    }

    /// Stores `value` under `name` as the next version.
    /// - Throws: `VaultMessageError` `version_conflict`, `secret_limit_reached`; store errors.
    func put(memberID: String, name: String, value: [UInt8], expectedVersion: Int64?, now: Int64) async throws
        -> SecretSummary
    {
        let engine = store.engine
        return try await store.transaction { db in
            try await dataKeys.lock(memberID: memberID, on: db, engine: engine)
            let key = try await dataKeys.findOrCreate(memberID: memberID, now: now / 1000, on: db)
            let nameID = key.nameID(name)
            let existing = try await summaryRow(memberID: memberID, nameID: nameID, on: db)
            if let expectedVersion, expectedVersion != (existing?.version ?? 0) {
                throw VaultMessageError(
                    .versionConflict,
                    "the stored version is \(existing?.version ?? 0), not \(expectedVersion)")
            }
            let totals = try await db.raw(
                """
                SELECT COUNT(*) AS n, COALESCE(SUM(size), 0) AS total FROM vault_secrets WHERE user_id = \(bind: memberID)
                """
            ).first()
            let count = try totals?.decode(column: "n", as: Int.self) ?? 0
            let total = try totals?.decode(column: "total", as: Int.self) ?? 0
            guard count + (existing == nil ? 1 : 0) <= limits.maxSecrets else {
                throw VaultMessageError(.secretLimitReached, "a member keeps at most \(limits.maxSecrets) secrets")
            }
            guard total - (existing?.size ?? 0) + value.count <= limits.maxTotalBytes else {
                throw VaultMessageError(
                    .secretLimitReached, "a member's secrets hold at most \(limits.maxTotalBytes) bytes in all")
            }
            let version = (existing?.version ?? 0) + 1
            let sealed = try key.seal(
                Self.plaintext(name: name, value: value), label: Self.label(memberID, nameID, version))
            if existing == nil {
                try await db.raw(
                    """
                    INSERT INTO vault_secrets (user_id, name_id, version, size, sealed, updated_at_ms)
                    VALUES (\(bind: memberID), \(bind: nameID), \(bind: version), \(bind: value.count), \(bind: sealed), \(bind: now))
                    """
                ).run()
            } else {
                try await db.raw(
                    """
                    UPDATE vault_secrets SET version = \(bind: version), size = \(bind: value.count), sealed = \(bind: sealed),
                        updated_at_ms = \(bind: now)
                    WHERE user_id = \(bind: memberID) AND name_id = \(bind: nameID)
                    """
                ).run()
            }
            return SecretSummary(name: name, version: version, size: value.count, updatedAt: now)
        }
    }

    /// The value stored under `name`, or `nil`.
    /// - Throws: `StoreCorruption` when a row does not open under the member's key; store errors.
    func get(memberID: String, name: String) async throws -> SecretValue? {
        try await store.withDatabase { db in
            guard let key = try await dataKeys.find(memberID: memberID, on: db) else { return nil }
            let nameID = key.nameID(name)
            guard
                let row = try await db.raw(
                    """
                    SELECT name_id, version, sealed, updated_at_ms FROM vault_secrets
                    WHERE user_id = \(bind: memberID) AND name_id = \(bind: nameID)
                    """
                ).first()
            else { return nil }
            let (storedName, value, version, updatedAt) = try Self.open(row, memberID: memberID, key: key)
            guard storedName == name else { throw StoreCorruption(detail: "a secret row names another secret") }
            return SecretValue(name: name, value: Data(value), version: version, updatedAt: updatedAt)
        }
    }

    /// The member's secrets without values, by name, and their bytes in all.
    func list(memberID: String) async throws -> (secrets: [SecretSummary], totalBytes: Int) {
        try await store.withDatabase { db in
            guard let key = try await dataKeys.find(memberID: memberID, on: db) else { return ([], 0) }
            let rows = try await db.raw(
                """
                SELECT name_id, version, size, sealed, updated_at_ms FROM vault_secrets WHERE user_id = \(bind: memberID)
                """
            ).all()
            var secrets: [SecretSummary] = []
            for row in rows {
                let (name, value, version, updatedAt) = try Self.open(row, memberID: memberID, key: key)
                secrets.append(SecretSummary(name: name, version: version, size: value.count, updatedAt: updatedAt))
            }
            secrets.sort { $0.name < $1.name }
            return (secrets, secrets.reduce(0) { $0 + $1.size })
        }
    }

    /// Deletes the secret `name`; `nil` when there is none.
    /// - Throws: `VaultMessageError` `version_conflict`; store errors.
    func delete(memberID: String, name: String, expectedVersion: Int64?) async throws -> SecretSummary? {
        let engine = store.engine
        return try await store.transaction { db in
            try await dataKeys.lock(memberID: memberID, on: db, engine: engine)
            guard let key = try await dataKeys.find(memberID: memberID, on: db) else { return nil }
            let nameID = key.nameID(name)
            guard let existing = try await summaryRow(memberID: memberID, nameID: nameID, on: db) else { return nil }
            if let expectedVersion, expectedVersion != existing.version {
                throw VaultMessageError(
                    .versionConflict, "the stored version is \(existing.version), not \(expectedVersion)")
            }
            try await db.raw(
                "DELETE FROM vault_secrets WHERE user_id = \(bind: memberID) AND name_id = \(bind: nameID)"
            ).run()
            return SecretSummary(
                name: name, version: existing.version, size: existing.size, updatedAt: existing.updatedAt)
        }
    }

    private func summaryRow(memberID: String, nameID: String, on db: any SQLDatabase) async throws
        -> (version: Int64, size: Int, updatedAt: Int64)?
    {
        guard
            let row = try await db.raw(
                """
                SELECT version, size, updated_at_ms FROM vault_secrets
                WHERE user_id = \(bind: memberID) AND name_id = \(bind: nameID)
                """
            ).first()
        else { return nil }
        return (
            try row.decode(column: "version", as: Int64.self), try row.decode(column: "size", as: Int.self),
            try row.decode(column: "updated_at_ms", as: Int64.self)
        )
    }

    /// The label a secret's sealed value is bound to.
    static func label(_ memberID: String, _ nameID: String, _ version: Int64) -> String {
        "vault-secret:\(memberID):\(nameID):\(version)"
    }

    /// `u16 name length ‖ name ‖ value`.
    static func plaintext(name: String, value: [UInt8]) -> [UInt8] {
        let nameBytes = Array(name.utf8)
        return [UInt8(nameBytes.count >> 8), UInt8(nameBytes.count & 0xFF)] + nameBytes + value
    }

    private static func open(_ row: any SQLRow, memberID: String, key: VaultDataKey) throws
        -> (name: String, value: [UInt8], version: Int64, updatedAt: Int64)
    {
        let nameID = try row.decode(column: "name_id", as: String.self)
        let version = try row.decode(column: "version", as: Int64.self)
        guard
            let plaintext = key.open(
                try row.decode(column: "sealed", as: String.self), label: label(memberID, nameID, version)),
            plaintext.count >= 2
        else { throw StoreCorruption(detail: "a secret does not open under its member's data key") }
        let nameLength = Int(plaintext[0]) << 8 | Int(plaintext[1])
        guard plaintext.count >= 2 + nameLength else {
            throw StoreCorruption(detail: "a secret's sealed contents are truncated")
        }
        let name = String(decoding: plaintext[2..<(2 + nameLength)], as: UTF8.self)
        return (
            name, Array(plaintext[(2 + nameLength)...]), version,
            try row.decode(column: "updated_at_ms", as: Int64.self)
        )
    }
}
