// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation
import SQLKit
import VettIDCore

/// A login session: the family of refresh tokens issued from one login.
public struct MemberSession: Sendable, Equatable {
    public let id: UUID
    public let memberID: UUID
    /// The RFC 7638 thumbprint of the DPoP key the session is bound to, if any.
    public let dpopJKT: String?
    public let expiresAt: Date
    public let revokedAt: Date?

    /// Whether tokens of this session may still be used at `now`.
    public func isActive(at now: Date) -> Bool { revokedAt == nil && expiresAt > now }
}

/// The result of presenting a refresh token.
public enum RefreshOutcome: Sendable, Equatable {
    /// The token was valid; it is now used, and `session` continues with a new token.
    case rotated(session: MemberSession)
    /// The token was never issued or has expired.
    case unknown
    /// The token had already been used: the whole family was revoked.
    case reused(sessionID: UUID)
    /// The session was revoked or has expired.
    case sessionEnded
}

/// Sessions and their single-use refresh tokens (stored as SHA-256 hashes only).
public struct SessionRepository: Sendable {
    let store: any SQLStore

    public init(store: any SQLStore) { self.store = store }

    /// Creates a session with its first refresh token.
    public func create(
        memberID: UUID, dpopJKT: String?, refreshTokenHash: String, refreshExpiresAt: Date,
        sessionExpiresAt: Date, now: Date
    ) async throws -> MemberSession {
        let session = MemberSession(
            id: UUID(), memberID: memberID, dpopJKT: dpopJKT, expiresAt: sessionExpiresAt, revokedAt: nil
        )
        try await store.transaction { db in
            try await db.raw(
                """
                INSERT INTO sessions (id, user_id, dpop_jkt, created_at, expires_at)
                VALUES (\(bind: session.id.key), \(bind: memberID.key), \(bind: dpopJKT),
                        \(bind: UnixSeconds.from(now)), \(bind: UnixSeconds.from(sessionExpiresAt)))
                """
            ).run()
            try await Self.insertToken(
                db, hash: refreshTokenHash, sessionID: session.id, expiresAt: refreshExpiresAt, now: now)
        }
        return session
    }

    /// Uses `presentedHash` once and, if it was valid, stores `nextHash` in the same family — atomically, so two
    /// concurrent refreshes with one token cannot both succeed. A second use of a token revokes the family.
    public func rotate(presentedHash: String, nextHash: String, nextExpiresAt: Date, now: Date) async throws
        -> RefreshOutcome
    {
        let nowSeconds = UnixSeconds.from(now)
        return try await store.transaction { db in
            let claimed = try await db.raw(
                """
                UPDATE refresh_tokens SET used_at = \(bind: nowSeconds)
                WHERE token_hash = \(bind: presentedHash) AND used_at IS NULL AND expires_at > \(bind: nowSeconds)
                RETURNING session_id
                """
            ).first()
            guard let claimed else {
                let existing = try await db.raw(
                    "SELECT session_id, used_at FROM refresh_tokens WHERE token_hash = \(bind: presentedHash)"
                ).first()
                guard let existing, try existing.decodeNil(column: "used_at") == false else { return .unknown }
                let sessionID = try Self.uuid(existing, "session_id")
                try await Self.revoke(db, sessionID: sessionID, reason: "refresh_token_reuse", now: nowSeconds)
                return .reused(sessionID: sessionID)
            }
            let sessionID = try Self.uuid(claimed, "session_id")
            guard let session = try await Self.fetchSession(db, id: sessionID), session.isActive(at: now) else {
                return .sessionEnded
            }
            try await Self.insertToken(
                db, hash: nextHash, sessionID: sessionID, expiresAt: min(nextExpiresAt, session.expiresAt), now: now)
            return .rotated(session: session)
        }
    }

    /// The session with this id.
    public func find(id: UUID) async throws -> MemberSession? {
        try await store.withDatabase { db in try await Self.fetchSession(db, id: id) }
    }

    /// Whether `jkt` is a device key this member has signed in with before (any session bound to it, current or
    /// ended): the proof-of-possession that exempts a login from the account-wide failure ceiling.
    public func isKnownDevice(memberID: UUID, jkt: String) async throws -> Bool {
        try await store.withDatabase { db in
            try await db.raw(
                "SELECT 1 AS known FROM sessions WHERE user_id = \(bind: memberID.key) AND dpop_jkt = \(bind: jkt) LIMIT 1"
            ).first() != nil
        }
    }

    /// Revokes a session and so every refresh and access token of it. Idempotent.
    public func revoke(id: UUID, reason: String, now: Date) async throws {
        try await store.withDatabase { db in
            try await Self.revoke(db, sessionID: id, reason: reason, now: UnixSeconds.from(now))
        }
    }

    private static func revoke(_ db: any SQLDatabase, sessionID: UUID, reason: String, now: Int64) async throws {
        try await db.raw(
            """
            UPDATE sessions SET revoked_at = \(bind: now), revoked_reason = \(bind: reason)
            WHERE id = \(bind: sessionID.key) AND revoked_at IS NULL
            """
        ).run()
    }

    private static func insertToken(_ db: any SQLDatabase, hash: String, sessionID: UUID, expiresAt: Date, now: Date)
        async throws
    {
        try await db.raw(
            """
            INSERT INTO refresh_tokens (token_hash, session_id, created_at, expires_at)
            VALUES (\(bind: hash), \(bind: sessionID.key), \(bind: UnixSeconds.from(now)), \(bind: UnixSeconds.from(expiresAt)))
            """
        ).run()
    }

    private static func fetchSession(_ db: any SQLDatabase, id: UUID) async throws -> MemberSession? {
        guard
            let row = try await db.raw(
                "SELECT id, user_id, dpop_jkt, expires_at, revoked_at FROM sessions WHERE id = \(bind: id.key)"
            ).first()
        else { return nil }
        return MemberSession(
            id: try uuid(row, "id"),
            memberID: try uuid(row, "user_id"),
            dpopJKT: try row.decode(column: "dpop_jkt", as: String?.self),
            expiresAt: UnixSeconds.date(try row.decode(column: "expires_at", as: Int64.self)),
            revokedAt: try row.decode(column: "revoked_at", as: Int64?.self).map(UnixSeconds.date)
        )
    }

    private static func uuid(_ row: any SQLRow, _ column: String) throws -> UUID {
        guard let id = UUID(uuidString: try row.decode(column: column, as: String.self)) else {
            throw StoreCorruption(detail: "\(column) is not a UUID")
        }
        return id
    }
}

extension UUID {
    /// The canonical lower-case text form used as a key in the store.
    var key: String { uuidString.lowercased() }
}
