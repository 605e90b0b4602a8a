// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import SQLKit
import VettIDCore

/// A device's vault credential as the server stores it: never the password or its hash (those live in the sealed
/// blob on the device), only the sealed credential key, its version, and the device it is bound to.
struct VaultCredential: Sendable, Equatable {
    let credentialID: String
    let userID: UUID
    /// The RFC 7638 thumbprint of the enrolled device's DPoP key.
    let deviceJKT: String
    let deviceType: String
    let securityLevel: String
    /// `apple-appattest`, `software` or `development`; `nil` when the device did not attest.
    let attestationFormat: String?
    /// The App Attest key (in `attested_keys`) whose assertions authenticate action requests.
    let attestedKeyID: String?
    let keyVersion: Int64
    /// The credential key, sealed under the master key (label names the credential and version).
    let sealedKey: String
    let failedAttempts: Int
    let lockedAt: Int64?
    let revokedAt: Int64?
    let enrolledAt: Int64
    let lastAuthAt: Int64?
    let lastSyncAt: Int64?
}

/// Vault credentials in the SQL store. Rotation and failure counting are single conditional statements.
struct VaultCredentialRepository: Sendable {
    private static let columns: SQLQueryString = """
        credential_id, user_id, device_jkt, device_type, security_level, attestation_format, attested_key_id,
        key_version, sealed_key, failed_attempts, locked_at, revoked_at, enrolled_at, last_auth_at, last_sync_at
        """

    func insert(_ credential: VaultCredential, on db: any SQLDatabase) async throws {
        try await db.raw(
            """
            INSERT INTO vault_credentials (\(Self.columns), updated_at)
            VALUES (\(bind: credential.credentialID), \(bind: credential.userID.key), \(bind: credential.deviceJKT),
                    \(bind: credential.deviceType), \(bind: credential.securityLevel), \(bind: credential.attestationFormat),
                    \(bind: credential.attestedKeyID), \(bind: credential.keyVersion), \(bind: credential.sealedKey),
                    \(bind: Int64(credential.failedAttempts)), \(bind: credential.lockedAt), \(bind: credential.revokedAt),
                    \(bind: credential.enrolledAt), \(bind: credential.lastAuthAt), \(bind: credential.lastSyncAt),
                    \(bind: credential.enrolledAt))
            """
        ).run()
    }

    func find(_ credentialID: String, on db: any SQLDatabase) async throws -> VaultCredential? {
        try await db.raw("SELECT \(Self.columns) FROM vault_credentials WHERE credential_id = \(bind: credentialID)")
            .first().map(Self.decode)
    }

    /// The member's current (not revoked) credential, if any.
    func current(userID: UUID, on db: any SQLDatabase) async throws -> VaultCredential? {
        try await db.raw(
            """
            SELECT \(Self.columns) FROM vault_credentials
            WHERE user_id = \(bind: userID.key) AND revoked_at IS NULL ORDER BY enrolled_at DESC LIMIT 1
            """
        ).first().map(Self.decode)
    }

    /// Every credential of the member, newest first.
    func all(userID: UUID, on db: any SQLDatabase) async throws -> [VaultCredential] {
        try await db.raw(
            """
            SELECT \(Self.columns) FROM vault_credentials
            WHERE user_id = \(bind: userID.key) ORDER BY enrolled_at DESC, credential_id
            """
        ).all().map(Self.decode)
    }

    /// Whether `deviceJKT` is the device of one of the member's credentials that is not revoked.
    func hasUnrevokedDevice(userID: UUID, deviceJKT: String, on db: any SQLDatabase) async throws -> Bool {
        try await db.raw(
            """
            SELECT credential_id FROM vault_credentials
            WHERE user_id = \(bind: userID.key) AND device_jkt = \(bind: deviceJKT) AND revoked_at IS NULL LIMIT 1
            """
        ).first() != nil
    }

    /// Revokes one credential; `false` when it was already revoked.
    func revoke(_ credentialID: String, now: Int64, on db: any SQLDatabase) async throws -> Bool {
        try await db.raw(
            """
            UPDATE vault_credentials SET revoked_at = \(bind: now), updated_at = \(bind: now)
            WHERE credential_id = \(bind: credentialID) AND revoked_at IS NULL
            RETURNING credential_id
            """
        ).first() != nil
    }

    /// Takes the credential's row lock for the rest of the transaction (PostgreSQL; SQLite transactions here
    /// are `BEGIN IMMEDIATE` and already exclusive).
    func lock(_ credentialID: String, on db: any SQLDatabase, engine: SQLEngine) async throws {
        guard engine == .postgres else { return }
        _ = try await db.raw(
            "SELECT credential_id FROM vault_credentials WHERE credential_id = \(bind: credentialID) FOR UPDATE"
        )
        .first()
    }

    /// Retires the member's other credentials: a vault has one enrolled device (docs/protocol.md §4).
    /// - Returns: The device thumbprints of the credentials revoked now.
    @discardableResult
    func revokeOthers(
        userID: UUID, keeping credentialID: String, now: Int64, on db: any SQLDatabase
    ) async throws -> [String] {
        try await db.raw(
            """
            UPDATE vault_credentials SET revoked_at = \(bind: now), updated_at = \(bind: now)
            WHERE user_id = \(bind: userID.key) AND credential_id <> \(bind: credentialID) AND revoked_at IS NULL
            RETURNING device_jkt
            """
        ).all().map { try $0.decode(column: "device_jkt", as: String.self) }
    }

    /// Compare-and-set rotation after a successful authentication: moves to `newVersion` with `sealedKey` only
    /// if the credential is still at `fromVersion`, unlocked and not revoked; resets the failure count.
    func rotate(
        _ credentialID: String, from fromVersion: Int64, to newVersion: Int64, sealedKey: String, now: Int64,
        on db: any SQLDatabase
    ) async throws -> Bool {
        try await db.raw(
            """
            UPDATE vault_credentials
            SET key_version = \(bind: newVersion), sealed_key = \(bind: sealedKey), failed_attempts = \(bind: Int64(0)),
                last_auth_at = \(bind: now), updated_at = \(bind: now)
            WHERE credential_id = \(bind: credentialID) AND key_version = \(bind: fromVersion)
              AND locked_at IS NULL AND revoked_at IS NULL
            RETURNING credential_id
            """
        ).first() != nil
    }

    /// Records a sync.
    func markSynced(_ credentialID: String, now: Int64, on db: any SQLDatabase) async throws {
        try await db.raw(
            "UPDATE vault_credentials SET last_sync_at = \(bind: now) WHERE credential_id = \(bind: credentialID)"
        ).run()
    }

    /// Counts a failed authentication and locks the credential at `maxAttempts`; returns the new count.
    func recordFailure(_ credentialID: String, maxAttempts: Int, now: Int64, on db: any SQLDatabase) async throws -> Int
    {
        let row = try await db.raw(
            """
            UPDATE vault_credentials
            SET failed_attempts = failed_attempts + 1,
                locked_at = CASE WHEN failed_attempts + 1 >= \(bind: Int64(maxAttempts)) THEN COALESCE(locked_at, \(bind: now)) ELSE locked_at END,
                updated_at = \(bind: now)
            WHERE credential_id = \(bind: credentialID)
            RETURNING failed_attempts
            """
        ).first()
        return try row?.decode(column: "failed_attempts", as: Int.self) ?? maxAttempts
    }

    private static func decode(_ row: any SQLRow) throws -> VaultCredential {
        guard let userID = UUID(uuidString: try row.decode(column: "user_id", as: String.self)) else {
            throw StoreCorruption(detail: "vault_credentials.user_id is not a UUID")
        }
        return VaultCredential(
            credentialID: try row.decode(column: "credential_id", as: String.self), userID: userID,
            deviceJKT: try row.decode(column: "device_jkt", as: String.self),
            deviceType: try row.decode(column: "device_type", as: String.self),
            securityLevel: try row.decode(column: "security_level", as: String.self),
            attestationFormat: try row.decode(column: "attestation_format", as: String?.self),
            attestedKeyID: try row.decode(column: "attested_key_id", as: String?.self),
            keyVersion: try row.decode(column: "key_version", as: Int64.self),
            sealedKey: try row.decode(column: "sealed_key", as: String.self),
            failedAttempts: try row.decode(column: "failed_attempts", as: Int.self),
            lockedAt: try row.decode(column: "locked_at", as: Int64?.self),
            revokedAt: try row.decode(column: "revoked_at", as: Int64?.self),
            enrolledAt: try row.decode(column: "enrolled_at", as: Int64.self),
            lastAuthAt: try row.decode(column: "last_auth_at", as: Int64?.self),
            lastSyncAt: try row.decode(column: "last_sync_at", as: Int64?.self)
        )
    }
}
