// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import SQLKit

/// A member's allocated NATS namespaces.
struct NATSAccountRecord: Sendable, Equatable {
    let userID: UUID
    /// `OwnerSpace.<user_guid>`.
    let ownerSpace: String
    /// `MessageSpace.<user_guid>`.
    let messageSpace: String
    let createdAt: Int64
}

/// Members' NATS namespaces, and the sequence of application account JWT versions, in the SQL store.
struct NATSAccountRepository: Sendable {
    func find(userID: UUID, on db: any SQLDatabase) async throws -> NATSAccountRecord? {
        try await db.raw(
            """
            SELECT user_id, owner_space, message_space, created_at FROM nats_accounts WHERE user_id = \(bind: userID.key)
            """
        ).first().map(Self.decode)
    }

    /// Locks the member's account row until the transaction ends (PostgreSQL; SQLite transactions are
    /// `BEGIN IMMEDIATE` and already exclusive), so counting and issuing tokens is one step.
    func lock(userID: UUID, on db: any SQLDatabase, engine: SQLEngine) async throws {
        guard engine == .postgres else { return }
        _ = try await db.raw("SELECT user_id FROM nats_accounts WHERE user_id = \(bind: userID.key) FOR UPDATE").first()
    }

    /// Inserts the member's namespaces; `false` when they already exist (nothing changes).
    func create(_ account: NATSAccountRecord, on db: any SQLDatabase) async throws -> Bool {
        let inserted = try await db.raw(
            """
            INSERT INTO nats_accounts (user_id, owner_space, message_space, created_at)
            VALUES (\(bind: account.userID.key), \(bind: account.ownerSpace), \(bind: account.messageSpace), \(bind: account.createdAt))
            ON CONFLICT (user_id) DO NOTHING
            RETURNING user_id
            """
        ).first()
        return inserted != nil
    }

    /// The last `iat` issued for `accountKey` (0 before the first).
    func lastAccountIssuedAt(accountKey: String, on db: any SQLDatabase) async throws -> Int64 {
        let row = try await db.raw(
            "SELECT last_issued_at FROM nats_account_updates WHERE account_public_key = \(bind: accountKey)"
        ).first()
        return try row?.decode(column: "last_issued_at", as: Int64.self) ?? 0
    }

    /// The `iat` of the next application account JWT: `now`, or one more than the last one when that is not
    /// older. Runs inside the caller's transaction and locks the row until it commits, so account JWTs built
    /// in that transaction get strictly increasing `iat`s and each includes every revocation committed before it.
    func nextAccountIssuedAt(accountKey: String, now: Int64, on db: any SQLDatabase) async throws -> Int64 {
        try await db.raw(
            """
            INSERT INTO nats_account_updates (account_public_key, last_issued_at) VALUES (\(bind: accountKey), 0)
            ON CONFLICT (account_public_key) DO NOTHING
            """
        ).run()
        guard
            let row = try await db.raw(
                """
                UPDATE nats_account_updates
                SET last_issued_at = CASE WHEN last_issued_at >= \(bind: now) THEN last_issued_at + 1 ELSE \(bind: now) END
                WHERE account_public_key = \(bind: accountKey)
                RETURNING last_issued_at
                """
            ).first()
        else { throw StoreCorruption(detail: "nats_account_updates row vanished") }
        return try row.decode(column: "last_issued_at", as: Int64.self)
    }

    private static func decode(_ row: any SQLRow) throws -> NATSAccountRecord {
        guard let userID = UUID(uuidString: try row.decode(column: "user_id", as: String.self)) else {
            throw StoreCorruption(detail: "nats_accounts row")
        }
        return NATSAccountRecord(
            userID: userID, ownerSpace: try row.decode(column: "owner_space", as: String.self),
            messageSpace: try row.decode(column: "message_space", as: String.self),
            createdAt: try row.decode(column: "created_at", as: Int64.self))
    }
}
