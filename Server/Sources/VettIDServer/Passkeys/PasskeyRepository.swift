// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import Foundation
import SQLKit
import VettIDAttestation
import VettIDCore
import VettIDCrypto

/// Passkeys, the members' WebAuthn user handles and the ceremonies' challenges in the SQL store.
struct PasskeyRepository: Sendable {
    let store: any SQLStore

    // MARK: User handles

    /// The member's WebAuthn user handle: 32 random bytes made on first use, never derived from the email or the
    /// member id (WebAuthn §14.6.1: the handle must not identify the member to anyone else).
    func userHandle(for userID: UUID) async throws -> [UInt8] {
        if let existing = try await findUserHandle(userID: userID) { return existing }
        let handle = [UInt8](SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) })
        try await store.withDatabase { db in
            try await db.raw(
                """
                INSERT INTO passkey_users (user_id, user_handle) VALUES (\(bind: userID.key), \(bind: Base64URL.encode(handle)))
                ON CONFLICT (user_id) DO NOTHING
                """
            ).run()
        }
        // Another request may have made one first: the stored one wins.
        guard let stored = try await findUserHandle(userID: userID) else {
            throw StoreCorruption(detail: "passkey_users row vanished")
        }
        return stored
    }

    func findUserHandle(userID: UUID) async throws -> [UInt8]? {
        try await store.withDatabase { db in
            try await db.raw("SELECT user_handle FROM passkey_users WHERE user_id = \(bind: userID.key)").first()
        }.map { row in try Self.bytes(try row.decode(column: "user_handle", as: String.self)) }
    }

    // MARK: Credentials

    /// Stores a new credential; `false` when its id is registered already (to anyone).
    func insert(_ record: PasskeyRecord) async throws -> Bool {
        try await store.withDatabase { db in
            try await db.raw(
                """
                INSERT INTO passkeys (credential_id, user_id, public_key, sign_count, backup_eligible, backup_state,
                    transports, name, attestation_format, created_at_ms, last_used_at_ms)
                VALUES (\(bind: record.id), \(bind: record.userID.key), \(bind: Base64URL.encode(record.publicKey.encoded)),
                    \(bind: Int64(record.signCount)), \(bind: record.backupEligible ? 1 : 0), \(bind: record.backupState ? 1 : 0),
                    \(bind: record.transports.joined(separator: ",")), \(bind: record.name), \(bind: record.attestationFormat),
                    \(bind: record.createdAtMilliseconds), \(bind: record.lastUsedAtMilliseconds))
                ON CONFLICT (credential_id) DO NOTHING
                RETURNING credential_id
                """
            ).first() != nil
        }
    }

    /// A credential by id, whoever owns it.
    func find(credentialID: [UInt8]) async throws -> PasskeyRecord? {
        try await store.withDatabase { db in
            try await db.raw("SELECT * FROM passkeys WHERE credential_id = \(bind: Base64URL.encode(credentialID))")
                .first()
        }.map(Self.decode)
    }

    /// The member's passkeys, oldest first.
    func list(userID: UUID) async throws -> [PasskeyRecord] {
        try await store.withDatabase { db in
            try await db.raw(
                "SELECT * FROM passkeys WHERE user_id = \(bind: userID.key) ORDER BY created_at_ms, credential_id"
            ).all()
        }.map(Self.decode)
    }

    /// Records a verified sign-in: the new counter and backup state, the time. Only when the counter is still the
    /// one the check saw, so two sign-ins racing with the same counter cannot both pass; `false` then.
    func recordUse(
        credentialID: [UInt8], expectedSignCount: UInt32, signCount: UInt32, backupState: Bool, now: Int64
    ) async throws -> Bool {
        try await store.withDatabase { db in
            try await db.raw(
                """
                UPDATE passkeys SET sign_count = \(bind: Int64(signCount)), backup_state = \(bind: backupState ? 1 : 0),
                    last_used_at_ms = \(bind: now)
                WHERE credential_id = \(bind: Base64URL.encode(credentialID)) AND sign_count = \(bind: Int64(expectedSignCount))
                RETURNING credential_id
                """
            ).first() != nil
        }
    }

    /// Renames one of the member's passkeys; the record, or `nil` when the member has none with this id.
    func rename(credentialID: [UInt8], userID: UUID, to name: String) async throws -> PasskeyRecord? {
        try await store.withDatabase { db in
            try await db.raw(
                """
                UPDATE passkeys SET name = \(bind: name)
                WHERE credential_id = \(bind: Base64URL.encode(credentialID)) AND user_id = \(bind: userID.key)
                RETURNING *
                """
            ).first()
        }.map(Self.decode)
    }

    /// Removes one of the member's passkeys; the removed record, or `nil` when the member has none with this id.
    func remove(credentialID: [UInt8], userID: UUID) async throws -> PasskeyRecord? {
        try await store.withDatabase { db in
            try await db.raw(
                """
                DELETE FROM passkeys
                WHERE credential_id = \(bind: Base64URL.encode(credentialID)) AND user_id = \(bind: userID.key)
                RETURNING *
                """
            ).first()
        }.map(Self.decode)
    }

    // MARK: Challenges

    static func hash(_ challenge: [UInt8]) -> String { Hex.encode(SHA256.hash(data: challenge)) }

    /// Keeps a ceremony's challenge until `expiresAt` (and drops challenges that expired an hour ago).
    func insert(challenge: [UInt8], for ceremony: PasskeyCeremony, now: Int64, expiresAt: Int64) async throws {
        let allowed = ceremony.allowedCredentialIDs.map { Base64URL.encode($0) }.joined(separator: ",")
        try await store.withDatabase { db in
            try await db.raw("DELETE FROM passkey_challenges WHERE expires_at_ms < \(bind: now - 3_600_000)").run()
            try await db.raw(
                """
                INSERT INTO passkey_challenges (challenge_hash, ceremony, user_id, allowed_credentials, expires_at_ms)
                VALUES (\(bind: Self.hash(challenge)), \(bind: ceremony.kind.rawValue), \(bind: ceremony.userID?.key),
                    \(bind: allowed), \(bind: expiresAt))
                """
            ).run()
        }
    }

    /// Takes a challenge out of the store: the ceremony it was issued for when it was there and had not expired,
    /// `nil` otherwise. A challenge is taken at most once, whatever the outcome of the ceremony.
    func consume(challenge: [UInt8], now: Int64) async throws -> PasskeyCeremony? {
        let row = try await store.withDatabase { db in
            try await db.raw(
                """
                DELETE FROM passkey_challenges WHERE challenge_hash = \(bind: Self.hash(challenge))
                RETURNING ceremony, user_id, allowed_credentials, expires_at_ms
                """
            ).first()
        }
        guard let row, try row.decode(column: "expires_at_ms", as: Int64.self) > now else { return nil }
        guard let kind = PasskeyCeremony.Kind(rawValue: try row.decode(column: "ceremony", as: String.self)) else {
            throw StoreCorruption(detail: "passkey_challenges row")
        }
        let userID = try row.decode(column: "user_id", as: String?.self).map { text in
            guard let id = UUID(uuidString: text) else { throw StoreCorruption(detail: "passkey_challenges row") }
            return id
        }
        let allowed = try row.decode(column: "allowed_credentials", as: String.self).split(separator: ",")
            .map { try Self.bytes(String($0)) }
        return PasskeyCeremony(kind: kind, userID: userID, allowedCredentialIDs: allowed)
    }

    // MARK: Rows

    private static func bytes(_ text: String) throws -> [UInt8] {
        guard let bytes = Base64URL.decode(text) else { throw StoreCorruption(detail: "base64url column") }
        return bytes
    }

    private static func decode(_ row: any SQLRow) throws -> PasskeyRecord {
        guard let userID = UUID(uuidString: try row.decode(column: "user_id", as: String.self)),
            let signCount = UInt32(exactly: try row.decode(column: "sign_count", as: Int64.self)),
            let publicKey = try? COSEKey(bytes: try bytes(try row.decode(column: "public_key", as: String.self)))
        else { throw StoreCorruption(detail: "passkeys row") }
        let transports = try row.decode(column: "transports", as: String.self)
        return PasskeyRecord(
            credentialID: try bytes(try row.decode(column: "credential_id", as: String.self)), userID: userID,
            publicKey: publicKey, signCount: signCount,
            backupEligible: try row.decode(column: "backup_eligible", as: Int64.self) != 0,
            backupState: try row.decode(column: "backup_state", as: Int64.self) != 0,
            transports: transports.isEmpty ? [] : transports.split(separator: ",").map(String.init),
            name: try row.decode(column: "name", as: String.self),
            attestationFormat: try row.decode(column: "attestation_format", as: String.self),
            createdAtMilliseconds: try row.decode(column: "created_at_ms", as: Int64.self),
            lastUsedAtMilliseconds: try row.decode(column: "last_used_at_ms", as: Int64?.self))
    }
}
