// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import SQLKit

/// A single-use vault action (the first half of vault authentication).
struct VaultAction: Sendable, Equatable {
    let id: String
    let credentialID: String
    let deviceJKT: String
    /// The transaction key reserved for this action's password.
    let keyID: String
    let expiresAt: Int64
    let usedAt: Int64?
    /// The credential package this action's successful auth execute issued (JSON), kept so that a repeat by the
    /// same device after a lost reply gets the same package.
    var result: String? = nil
}

/// Vault actions in the SQL store; ``consume(_:now:on:)`` uses one at most once.
struct VaultActionRepository: Sendable {
    /// The outcome of consuming an action.
    enum Consumption: Sendable, Equatable {
        case consumed(VaultAction)
        case used(VaultAction)
        case expired
        case unknown
    }

    func insert(_ action: VaultAction, now: Int64, on db: any SQLDatabase) async throws {
        try await db.raw(
            """
            INSERT INTO vault_actions (id, credential_id, device_jkt, key_id, created_at, expires_at)
            VALUES (\(bind: action.id), \(bind: action.credentialID), \(bind: action.deviceJKT), \(bind: action.keyID),
                    \(bind: now), \(bind: action.expiresAt))
            """
        ).run()
    }

    /// Keeps the package a successful auth execute of this action issued.
    func recordResult(_ id: String, package: String, on db: any SQLDatabase) async throws {
        try await db.raw("UPDATE vault_actions SET result = \(bind: package) WHERE id = \(bind: id)").run()
    }

    /// Marks the action used if it is unused and unexpired, atomically.
    func consume(_ id: String, now: Int64, on db: any SQLDatabase) async throws -> Consumption {
        let consumed = try await db.raw(
            """
            UPDATE vault_actions SET used_at = \(bind: now)
            WHERE id = \(bind: id) AND used_at IS NULL AND expires_at > \(bind: now)
            RETURNING id, credential_id, device_jkt, key_id, expires_at, used_at, result
            """
        ).first()
        if let consumed { return .consumed(try Self.decode(consumed)) }
        guard
            let row = try await db.raw(
                "SELECT id, credential_id, device_jkt, key_id, expires_at, used_at, result FROM vault_actions WHERE id = \(bind: id)"
            ).first()
        else { return .unknown }
        let action = try Self.decode(row)
        return action.usedAt != nil ? .used(action) : .expired
    }

    /// When the device `deviceJKT` last authenticated to the member's vault successfully (Unix seconds), through a
    /// credential that is not revoked; `nil` if never. A successful auth execute is the one that recorded a result.
    func lastAuthentication(memberID: String, deviceJKT: String, on db: any SQLDatabase) async throws -> Int64? {
        try await db.raw(
            """
            SELECT MAX(a.used_at) AS at FROM vault_actions a
            JOIN vault_credentials c ON c.credential_id = a.credential_id
            WHERE c.user_id = \(bind: memberID) AND a.device_jkt = \(bind: deviceJKT) AND a.result IS NOT NULL
                AND c.revoked_at IS NULL
            """
        ).first()?.decode(column: "at", as: Int64?.self)
    }

    private static func decode(_ row: any SQLRow) throws -> VaultAction {
        VaultAction(
            id: try row.decode(column: "id", as: String.self),
            credentialID: try row.decode(column: "credential_id", as: String.self),
            deviceJKT: try row.decode(column: "device_jkt", as: String.self),
            keyID: try row.decode(column: "key_id", as: String.self),
            expiresAt: try row.decode(column: "expires_at", as: Int64.self),
            usedAt: try row.decode(column: "used_at", as: Int64?.self),
            result: try row.decode(column: "result", as: String?.self)
        )
    }
}
