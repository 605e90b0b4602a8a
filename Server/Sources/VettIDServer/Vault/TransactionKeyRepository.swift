// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import Foundation
import HTTPTypes
import SQLKit
import VettIDCore
import VettIDCrypto

/// A transaction key's public half as it travels to the device.
struct TransactionPublicKey: Sendable, Equatable, Codable {
    let keyID: String
    /// base64url of the 32-byte X25519 public key.
    let publicKey: String
}

/// One-time X25519 transaction keys in the SQL store, their private halves sealed at rest.
///
/// A key belongs to an enrollment session, then (from finalize on) to the credential. It opens at most once:
/// ``claim(_:owner:now:)`` marks it used with one conditional `UPDATE … RETURNING`, so of concurrent claims
/// exactly one receives the private key.
struct TransactionKeyRepository: Sendable {
    /// Who may use a key.
    enum Owner: Sendable, Equatable {
        case session(String)
        case credential(String)

        var column: SQLQueryString {
            switch self {
            case .session: "session_id"
            case .credential: "credential_id"
            }
        }

        var id: String {
            switch self {
            case .session(let id), .credential(let id): id
            }
        }
    }

    /// The outcome of a claim.
    enum Claim: Sendable {
        case claimed(Curve25519.KeyAgreement.PrivateKey)
        /// The key was already opened (or claimed) once.
        case used
        /// No key of this owner has this id.
        case unknown
    }

    let sealer: SecretSealer

    static func label(_ keyID: String) -> String { "vettid-tx-key/v1:\(keyID)" }

    /// Creates `count` fresh keys for `owner`.
    func issue(_ count: Int, userID: UUID, owner: Owner, now: Int64, on db: any SQLDatabase) async throws
        -> [TransactionPublicKey]
    {
        var issued: [TransactionPublicKey] = []
        for _ in 0..<count {
            let privateKey = Curve25519.KeyAgreement.PrivateKey()
            let keyID = "tk_" + Base64URL.encode(SymmetricKey(size: .bits128).withUnsafeBytes { Array($0) })
            let publicKey = Base64URL.encode(privateKey.publicKey.rawRepresentation)
            let sealed = try sealer.seal(privateKey.rawRepresentation, label: Self.label(keyID))
            let (sessionID, credentialID): (String?, String?) =
                switch owner {
                case .session(let id): (id, nil)
                case .credential(let id): (nil, id)
                }
            try await db.raw(
                """
                INSERT INTO transaction_keys (key_id, user_id, session_id, credential_id, public_key, sealed_private_key, created_at)
                VALUES (\(bind: keyID), \(bind: userID.key), \(bind: sessionID), \(bind: credentialID), \(bind: publicKey),
                        \(bind: sealed), \(bind: now))
                """
            ).run()
            issued.append(TransactionPublicKey(keyID: keyID, publicKey: publicKey))
        }
        return issued
    }

    /// The owner's unused keys that no action has been offered, oldest first (what the device may hold).
    func unused(owner: Owner, on db: any SQLDatabase) async throws -> [TransactionPublicKey] {
        try await db.raw(
            """
            SELECT key_id, public_key FROM transaction_keys
            WHERE \(owner.column) = \(bind: owner.id) AND used_at IS NULL AND reserved_by IS NULL
            ORDER BY created_at, key_id
            """
        ).all().map {
            TransactionPublicKey(
                keyID: try $0.decode(column: "key_id", as: String.self),
                publicKey: try $0.decode(column: "public_key", as: String.self))
        }
    }

    /// The public half of one of the owner's keys, used or not.
    func find(_ keyID: String, owner: Owner, on db: any SQLDatabase) async throws -> TransactionPublicKey? {
        try await db.raw(
            "SELECT key_id, public_key FROM transaction_keys WHERE key_id = \(bind: keyID) AND \(owner.column) = \(bind: owner.id)"
        ).first().map {
            TransactionPublicKey(
                keyID: try $0.decode(column: "key_id", as: String.self),
                publicKey: try $0.decode(column: "public_key", as: String.self))
        }
    }

    /// Marks the key used and returns its private half, atomically: at most one claim of a key ever succeeds,
    /// whether or not what it was claimed for succeeds afterwards.
    func claim(_ keyID: String, owner: Owner, now: Int64, on db: any SQLDatabase) async throws -> Claim {
        let row = try await db.raw(
            """
            UPDATE transaction_keys SET used_at = \(bind: now)
            WHERE key_id = \(bind: keyID) AND \(owner.column) = \(bind: owner.id) AND used_at IS NULL
            RETURNING sealed_private_key
            """
        ).first()
        guard let row else {
            let exists = try await db.raw(
                "SELECT key_id FROM transaction_keys WHERE key_id = \(bind: keyID) AND \(owner.column) = \(bind: owner.id)"
            ).first()
            return exists == nil ? .unknown : .used
        }
        guard
            let raw = sealer.open(
                try row.decode(column: "sealed_private_key", as: String.self), label: Self.label(keyID)),
            let privateKey = try? Curve25519.KeyAgreement.PrivateKey(rawRepresentation: raw)
        else { throw StoreCorruption(detail: "a sealed transaction key does not open") }
        return .claimed(privateKey)
    }

    /// Hands the session's keys to the credential created from it.
    func transfer(session sessionID: String, to credentialID: String, on db: any SQLDatabase) async throws {
        try await db.raw(
            "UPDATE transaction_keys SET credential_id = \(bind: credentialID), session_id = NULL WHERE session_id = \(bind: sessionID)"
        ).run()
    }

    /// Reserves the oldest unused key of the credential that was never offered to an action. A key is offered
    /// once: if its action expires unused the key is not offered again (the device dropped it when it sent the
    /// password, or will drop it with its next package), so device and server never disagree about a key.
    func reserve(credentialID: String, for actionID: String, until: Int64, on db: any SQLDatabase)
        async throws -> TransactionPublicKey?
    {
        let candidates = try await db.raw(
            """
            SELECT key_id, public_key FROM transaction_keys
            WHERE credential_id = \(bind: credentialID) AND used_at IS NULL AND reserved_by IS NULL
            ORDER BY created_at, key_id LIMIT 4
            """
        ).all()
        for row in candidates {
            let keyID = try row.decode(column: "key_id", as: String.self)
            let reserved = try await db.raw(
                """
                UPDATE transaction_keys SET reserved_by = \(bind: actionID), reserved_until = \(bind: until)
                WHERE key_id = \(bind: keyID) AND used_at IS NULL AND reserved_by IS NULL
                RETURNING key_id
                """
            ).first()
            if reserved != nil {
                return TransactionPublicKey(
                    keyID: keyID, publicKey: try row.decode(column: "public_key", as: String.self))
            }
        }
        return nil
    }

    /// Tops the credential's pool up to `poolSize` when fewer than `threshold` unused keys remain; returns the new
    /// keys. Run inside a transaction that holds the credential's row lock (see
    /// ``VaultCredentialRepository/lock(_:on:engine:)``), so concurrent refills never overshoot.
    func refill(
        credentialID: String, userID: UUID, poolSize: Int, threshold: Int, now: Int64, on db: any SQLDatabase
    ) async throws -> [TransactionPublicKey] {
        let row = try await db.raw(
            """
            SELECT COUNT(*) AS unused FROM transaction_keys
            WHERE credential_id = \(bind: credentialID) AND used_at IS NULL AND reserved_by IS NULL
            """
        ).first()
        let unused = try row?.decode(column: "unused", as: Int.self) ?? 0
        guard unused < threshold else { return [] }
        return try await issue(poolSize - unused, userID: userID, owner: .credential(credentialID), now: now, on: db)
    }
}

extension TransactionKeyRepository.Claim {
    /// Opens `payload` with the claimed key in `context`; every refusal has its own API code.
    func open(_ payload: EncryptedPayload, context: TransactionKeyContext) throws -> [UInt8] {
        switch self {
        case .unknown:
            throw APIFailure.vault(
                .badRequest, .transactionKeyUnknown, "no transaction key of this flow has this key id")
        case .used:
            throw APIFailure.vault(.conflict, .transactionKeyUsed, "the transaction key was already used")
        case .claimed(let privateKey):
            do {
                return try TransactionKeyEnvelope.open(payload, context: context, privateKey: privateKey)
            } catch {
                throw APIFailure.vault(
                    .badRequest, .invalidEncryptedPayload,
                    "the encrypted payload does not open for this key, purpose and session or action (\(error.code.rawValue))"
                )
            }
        }
    }
}
