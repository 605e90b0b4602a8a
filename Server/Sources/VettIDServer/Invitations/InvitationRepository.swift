// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation
public import SQLKit
import VettIDCore

/// A device invitation as stored.
public struct Invitation: Sendable, Equatable {
    public enum Status: String, Sendable {
        case pending, used, revoked, expired

        /// The 409 code for acting on an invitation in this state (`invitation_used`, ...); `pending` has none and
        /// answers `invalid_request`.
        var conflictCode: APIFailure.Code {
            switch self {
            case .used: .invitationUsed
            case .revoked: .invitationRevoked
            case .expired: .invitationExpired
            case .pending: .invalidRequest
            }
        }
    }

    public let code: InvitationCode
    public let memberID: UUID
    public let label: String?
    public let createdAt: Date
    public let expiresAt: Date
    public let usedAt: Date?
    public let revokedAt: Date?

    /// The status at `now`: revoked and used are final; a pending one past its expiry is expired.
    public func status(at now: Date) -> Status {
        if revokedAt != nil { return .revoked }
        if usedAt != nil { return .used }
        return expiresAt <= now ? .expired : .pending
    }
}

/// Invitations in the SQL store.
public struct InvitationRepository: Sendable {
    let store: any SQLStore

    public init(store: any SQLStore) { self.store = store }

    /// Creates an invitation with a fresh random code (a collision, vanishingly rare, draws another).
    public func create(memberID: UUID, label: String?, expiresAt: Date, now: Date) async throws -> Invitation {
        for _ in 0..<8 {
            let code = InvitationCode.random()
            let inserted = try await store.withDatabase { db in
                try await db.raw(
                    """
                    INSERT INTO invitations (code, user_id, label, created_at, expires_at)
                    VALUES (\(bind: code.value), \(bind: memberID.key), \(bind: label), \(bind: UnixSeconds.from(now)), \(bind: UnixSeconds.from(expiresAt)))
                    ON CONFLICT (code) DO NOTHING
                    RETURNING code
                    """
                ).first()
            }
            if inserted != nil {
                return Invitation(
                    code: code, memberID: memberID, label: label, createdAt: UnixSeconds.date(UnixSeconds.from(now)),
                    expiresAt: UnixSeconds.date(UnixSeconds.from(expiresAt)), usedAt: nil, revokedAt: nil
                )
            }
        }
        throw StoreCorruption(detail: "could not draw an unused invitation code")
    }

    /// The member's invitations, newest first.
    public func list(memberID: UUID) async throws -> [Invitation] {
        try await store.withDatabase { db in
            try await db.raw(
                """
                SELECT code, user_id, label, created_at, expires_at, used_at, revoked_at FROM invitations
                WHERE user_id = \(bind: memberID.key) ORDER BY created_at DESC, code
                """
            ).all().map(Self.decode)
        }
    }

    /// The invitation with this code.
    public func find(_ code: InvitationCode) async throws -> Invitation? {
        try await store.withDatabase { db in
            try await Self.fetch(db, code)
        }
    }

    /// Revokes a pending invitation of `memberID`. Returns the invitation as it now is and whether this call
    /// revoked it, or `nil` if the member has no invitation with this code.
    public func revoke(_ code: InvitationCode, memberID: UUID, now: Date) async throws -> (Invitation, revoked: Bool)? {
        try await store.transaction { db in
            let changed = try await db.raw(
                """
                UPDATE invitations SET revoked_at = \(bind: UnixSeconds.from(now))
                WHERE code = \(bind: code.value) AND user_id = \(bind: memberID.key)
                  AND used_at IS NULL AND revoked_at IS NULL AND expires_at > \(bind: UnixSeconds.from(now))
                RETURNING code
                """
            ).first()
            guard let invitation = try await Self.fetch(db, code), invitation.memberID == memberID else { return nil }
            return (invitation, changed != nil)
        }
    }

    /// Marks a pending invitation used, atomically: of concurrent redemptions exactly one succeeds.
    /// Returns the member it belongs to, or `nil` when it is not pending (unknown, used, revoked, expired).
    public func redeem(_ code: InvitationCode, now: Date, on db: any SQLDatabase) async throws -> UUID? {
        let row = try await db.raw(
            """
            UPDATE invitations SET used_at = \(bind: UnixSeconds.from(now))
            WHERE code = \(bind: code.value) AND used_at IS NULL AND revoked_at IS NULL AND expires_at > \(bind: UnixSeconds.from(now))
            RETURNING user_id
            """
        ).first()
        guard let row else { return nil }
        guard let member = UUID(uuidString: try row.decode(column: "user_id", as: String.self)) else {
            throw StoreCorruption(detail: "invitations.user_id is not a UUID")
        }
        return member
    }

    static func fetch(_ db: any SQLDatabase, _ code: InvitationCode) async throws -> Invitation? {
        try await db.raw(
            "SELECT code, user_id, label, created_at, expires_at, used_at, revoked_at FROM invitations WHERE code = \(bind: code.value)"
        ).first().map(decode)
    }

    private static func decode(_ row: any SQLRow) throws -> Invitation {
        guard let code = InvitationCode(parsing: try row.decode(column: "code", as: String.self)),
            let member = UUID(uuidString: try row.decode(column: "user_id", as: String.self))
        else { throw StoreCorruption(detail: "invitations row") }
        return Invitation(
            code: code, memberID: member, label: try row.decode(column: "label", as: String?.self),
            createdAt: UnixSeconds.date(try row.decode(column: "created_at", as: Int64.self)),
            expiresAt: UnixSeconds.date(try row.decode(column: "expires_at", as: Int64.self)),
            usedAt: try row.decode(column: "used_at", as: Int64?.self).map(UnixSeconds.date),
            revokedAt: try row.decode(column: "revoked_at", as: Int64?.self).map(UnixSeconds.date)
        )
    }
}
