// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import Foundation
import HTTPTypes
import SQLKit
import VettIDCore
import VettIDCrypto

/// A registered App Attest key as stored.
struct StoredAttestedKey: Sendable, Equatable {
    /// Standard base64 of the 32-byte key id.
    let keyID: String
    let publicKey: P256.Signing.PublicKey
    /// `production`, `development` or `software`.
    let environment: String
    let counter: UInt32
    /// The RFC 7638 thumbprint of the device's DPoP key the attestation was bound to.
    let deviceJKT: String

    static func == (lhs: StoredAttestedKey, rhs: StoredAttestedKey) -> Bool {
        lhs.keyID == rhs.keyID && lhs.publicKey.rawRepresentation == rhs.publicKey.rawRepresentation
            && lhs.environment == rhs.environment && lhs.counter == rhs.counter && lhs.deviceJKT == rhs.deviceJKT
    }
}

/// Attested keys in the SQL store. The assertion counter only moves forward, by compare-and-set.
struct AttestedKeyRepository: Sendable {
    let store: any SQLStore

    /// Stores a newly attested key with counter 0. Returns false when the key id is already registered.
    func insert(
        keyID: String, publicKey: P256.Signing.PublicKey, environment: String, receipt: [UInt8], deviceJKT: String,
        now: Int64
    ) async throws -> Bool {
        try await store.withDatabase { db in
            try await Self.insert(
                keyID: keyID, publicKey: publicKey, environment: environment, receipt: receipt, deviceJKT: deviceJKT,
                now: now, on: db)
        }
    }

    /// ``insert(keyID:publicKey:environment:receipt:deviceJKT:now:)`` on a handle (inside a caller's transaction).
    static func insert(
        keyID: String, publicKey: P256.Signing.PublicKey, environment: String, receipt: [UInt8], deviceJKT: String,
        now: Int64, on db: any SQLDatabase
    ) async throws -> Bool {
        let publicKeyText = Base64URL.encode(publicKey.x963Representation)
        let receiptText = Data(receipt).base64EncodedString()
        let inserted = try await db.raw(
            """
            INSERT INTO attested_keys (key_id, public_key, environment, receipt, counter, device_jkt, created_at)
            VALUES (\(bind: keyID), \(bind: publicKeyText), \(bind: environment), \(bind: receiptText),
                    \(bind: Int64(0)), \(bind: deviceJKT), \(bind: now))
            ON CONFLICT (key_id) DO NOTHING RETURNING key_id
            """
        ).first()
        return inserted != nil
    }

    /// The key registered under `keyID`, if any.
    func find(keyID: String) async throws -> StoredAttestedKey? {
        try await store.withDatabase { db in
            guard
                let row = try await db.raw(
                    "SELECT key_id, public_key, environment, counter, device_jkt FROM attested_keys WHERE key_id = \(bind: keyID)"
                ).first()
            else { return nil }
            guard let keyBytes = Base64URL.decode(try row.decode(column: "public_key", as: String.self)),
                let publicKey = try? P256.Signing.PublicKey(x963Representation: keyBytes),
                let counter = UInt32(exactly: try row.decode(column: "counter", as: Int64.self))
            else { throw APIFailure(.internalServerError, .internalError, "a stored attested key is corrupt") }
            return StoredAttestedKey(
                keyID: try row.decode(column: "key_id", as: String.self), publicKey: publicKey,
                environment: try row.decode(column: "environment", as: String.self), counter: counter,
                deviceJKT: try row.decode(column: "device_jkt", as: String.self)
            )
        }
    }

    /// Compare-and-set: moves the counter to `counter` only if the stored one is lower. False when another
    /// request got there first (a replayed or reordered assertion).
    func advanceCounter(keyID: String, to counter: UInt32, now: Int64) async throws -> Bool {
        try await store.withDatabase { db in
            let updated = try await db.raw(
                """
                UPDATE attested_keys SET counter = \(bind: Int64(counter)), last_used_at = \(bind: now)
                WHERE key_id = \(bind: keyID) AND counter < \(bind: Int64(counter))
                RETURNING key_id
                """
            ).first()
            return updated != nil
        }
    }
}
