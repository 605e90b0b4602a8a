// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import SQLKit
import VettIDMessaging

/// A NATS token issued to a member (its JWT and seed are never stored).
struct NATSTokenRecord: Sendable, Equatable {
    let tokenID: String
    let userID: UUID
    let clientType: NatsClientType
    let deviceID: String?
    /// The user NKey (`U…`) the JWT was issued to; what a revocation names.
    let userPublicKey: String
    let issuedAt: Int64
    let expiresAt: Int64
    let revokedAt: Int64?

    func isActive(at now: Int64) -> Bool { revokedAt == nil && expiresAt > now }
}

/// Issued NATS tokens in the SQL store: what the status lists and what the account JWT revokes.
struct NATSTokenRepository: Sendable {
    private static let columns: SQLQueryString =
        "token_id, user_id, client_type, device_id, user_public_key, issued_at, expires_at, revoked_at"

    func insert(_ token: NATSTokenRecord, on db: any SQLDatabase) async throws {
        try await db.raw(
            """
            INSERT INTO nats_tokens (\(Self.columns))
            VALUES (\(bind: token.tokenID), \(bind: token.userID.key), \(bind: token.clientType.rawValue),
                    \(bind: token.deviceID), \(bind: token.userPublicKey), \(bind: token.issuedAt),
                    \(bind: token.expiresAt), NULL)
            """
        ).run()
    }

    func find(tokenID: String, userID: UUID, on db: any SQLDatabase) async throws -> NATSTokenRecord? {
        try await db.raw(
            """
            SELECT \(Self.columns) FROM nats_tokens WHERE token_id = \(bind: tokenID) AND user_id = \(bind: userID.key)
            """
        ).first().map(Self.decode)
    }

    /// The member's unexpired, unrevoked tokens, newest first.
    func active(userID: UUID, now: Int64, on db: any SQLDatabase) async throws -> [NATSTokenRecord] {
        try await db.raw(
            """
            SELECT \(Self.columns) FROM nats_tokens
            WHERE user_id = \(bind: userID.key) AND revoked_at IS NULL AND expires_at > \(bind: now)
            ORDER BY issued_at DESC, token_id
            """
        ).all().map(Self.decode)
    }

    /// Marks the token revoked at `now` unless it already is; returns the row as it now is.
    /// - Returns: the token as it now is, and whether this call revoked it (`false` when it already was).
    func revoke(tokenID: String, userID: UUID, now: Int64, on db: any SQLDatabase) async throws
        -> (record: NATSTokenRecord, revokedNow: Bool)?
    {
        let changed =
            try await db.raw(
                """
                UPDATE nats_tokens SET revoked_at = \(bind: now)
                WHERE token_id = \(bind: tokenID) AND user_id = \(bind: userID.key) AND revoked_at IS NULL
                RETURNING token_id
                """
            ).first() != nil
        return try await find(tokenID: tokenID, userID: userID, on: db).map { ($0, changed) }
    }

    /// Revocations nats-server still has to enforce: revoked tokens that have not expired yet (user key →
    /// revocation time). Expired tokens drop out, so the account JWT does not grow without bound.
    func pendingRevocations(now: Int64, on db: any SQLDatabase) async throws -> [String: Int64] {
        let rows = try await db.raw(
            """
            SELECT user_public_key, revoked_at FROM nats_tokens WHERE revoked_at IS NOT NULL AND expires_at > \(bind: now)
            """
        ).all()
        var revocations: [String: Int64] = [:]
        for row in rows {
            revocations[try row.decode(column: "user_public_key", as: String.self)] =
                try row.decode(column: "revoked_at", as: Int64.self)
        }
        return revocations
    }

    private static func decode(_ row: any SQLRow) throws -> NATSTokenRecord {
        guard let userID = UUID(uuidString: try row.decode(column: "user_id", as: String.self)),
            let clientType = NatsClientType(rawValue: try row.decode(column: "client_type", as: String.self))
        else { throw StoreCorruption(detail: "nats_tokens row") }
        return NATSTokenRecord(
            tokenID: try row.decode(column: "token_id", as: String.self), userID: userID, clientType: clientType,
            deviceID: try row.decode(column: "device_id", as: String?.self),
            userPublicKey: try row.decode(column: "user_public_key", as: String.self),
            issuedAt: try row.decode(column: "issued_at", as: Int64.self),
            expiresAt: try row.decode(column: "expires_at", as: Int64.self),
            revokedAt: try row.decode(column: "revoked_at", as: Int64?.self))
    }
}
