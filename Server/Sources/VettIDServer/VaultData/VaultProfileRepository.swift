// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import SQLKit
import VettIDCore
import VettIDMessaging

/// The members' profiles in `vault_profiles`: the fields as sorted JSON, sealed under the member's ``VaultDataKey``
/// bound to `vault-profile:<member>:<version>`.
struct VaultProfileRepository: Sendable {
    let store: any SQLStore
    let dataKeys: VaultDataKeyRepository
    let limits: VaultDataLimits

    init(store: any SQLStore, keys: SealingKeys, limits: VaultDataLimits) {
        self.store = store
        self.dataKeys = VaultDataKeyRepository(keys: keys)
        self.limits = limits
    }

    /// The member's profile (`VaultProfile.empty` before the first update).
    func get(memberID: String) async throws -> VaultProfile {
        try await store.withDatabase { db in try await current(memberID: memberID, key: nil, on: db) }
    }

    /// Sets then removes fields, as one new version.
    /// - Throws: `VaultMessageError` `invalid_profile` (a bad field, or more fields than the limit),
    ///   `version_conflict`; store errors.
    func update(memberID: String, _ request: ProfileUpdateRequest, now: Int64) async throws -> VaultProfile {
        for (name, value) in request.set { try limits.checkProfileField(name: name, value: value) }
        for name in request.remove { try limits.checkProfileField(name: name, value: nil) }
        let engine = store.engine
        return try await store.transaction { db in
            try await dataKeys.lock(memberID: memberID, on: db, engine: engine)
            let key = try await dataKeys.findOrCreate(memberID: memberID, now: now / 1000, on: db)
            let stored = try await current(memberID: memberID, key: key, on: db)
            if let expected = request.expectedVersion, expected != stored.version {
                throw VaultMessageError(
                    .versionConflict, "the stored version is \(stored.version), not \(expected)")
            }
            var fields = stored.fields
            fields.merge(request.set) { _, new in new }
            for name in request.remove { fields[name] = nil }
            guard fields.count <= limits.maxProfileFields else {
                throw VaultMessageError(.invalidProfile, "a profile has at most \(limits.maxProfileFields) fields")
            }
            let version = stored.version + 1
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            let sealed = try key.seal(Array(try encoder.encode(fields)), label: Self.label(memberID, version))
            if stored.version == 0 {
                try await db.raw(
                    """
                    INSERT INTO vault_profiles (user_id, version, sealed, updated_at_ms)
                    VALUES (\(bind: memberID), \(bind: version), \(bind: sealed), \(bind: now))
                    """
                ).run()
            } else {
                try await db.raw(
                    """
                    UPDATE vault_profiles SET version = \(bind: version), sealed = \(bind: sealed), updated_at_ms = \(bind: now)
                    WHERE user_id = \(bind: memberID)
                    """
                ).run()
            }
            return VaultProfile(fields: fields, version: version, updatedAt: now)
        }
    }

    private func current(memberID: String, key: VaultDataKey?, on db: any SQLDatabase) async throws -> VaultProfile {
        guard
            let row = try await db.raw(
                "SELECT version, sealed, updated_at_ms FROM vault_profiles WHERE user_id = \(bind: memberID)"
            ).first()
        else { return .empty }
        var dataKey = key
        if dataKey == nil { dataKey = try await dataKeys.find(memberID: memberID, on: db) }
        guard let key = dataKey else {
            throw StoreCorruption(detail: "a profile exists without its member's data key")
        }
        let version = try row.decode(column: "version", as: Int64.self)
        guard
            let bytes = key.open(
                try row.decode(column: "sealed", as: String.self), label: Self.label(memberID, version)),
            let fields = try? JSONDecoder().decode([String: String].self, from: Data(bytes))
        else { throw StoreCorruption(detail: "a profile does not open under its member's data key") }
        return VaultProfile(
            fields: fields, version: version, updatedAt: try row.decode(column: "updated_at_ms", as: Int64.self))
    }

    static func label(_ memberID: String, _ version: Int64) -> String { "vault-profile:\(memberID):\(version)" }
}
