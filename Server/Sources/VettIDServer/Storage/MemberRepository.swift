// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation
import SQLKit
import VettIDCore

/// A member account as stored.
public struct Member: Sendable, Equatable {
    public let id: UUID
    public let email: String
    public let passwordHash: String
    public let createdAt: Date
    /// As given at registration (trimmed), or `nil`.
    public var firstName: String? = nil
    /// As given at registration (trimmed), or `nil`.
    public var lastName: String? = nil
}

/// Members in the SQL store.
public struct MemberRepository: Sendable {
    let store: any SQLStore

    public init(store: any SQLStore) { self.store = store }

    /// Inserts a member; returns `nil` when the email is already registered (nothing is changed then).
    public func create(
        email: String, passwordHash: String, firstName: String? = nil, lastName: String? = nil, now: Date
    ) async throws -> Member? {
        let id = UUID()
        let created = UnixSeconds.from(now)
        let row = try await store.withDatabase { db in
            try await db.raw(
                """
                INSERT INTO users (id, email, password_hash, first_name, last_name, created_at, updated_at)
                VALUES (\(bind: id.uuidString.lowercased()), \(bind: email), \(bind: passwordHash), \(bind: firstName),
                        \(bind: lastName), \(bind: created), \(bind: created))
                ON CONFLICT (email) DO NOTHING
                RETURNING id
                """
            ).first()
        }
        guard row != nil else { return nil }
        return Member(
            id: id, email: email, passwordHash: passwordHash, createdAt: UnixSeconds.date(created),
            firstName: firstName,
            lastName: lastName)
    }

    /// The member with this normalised email.
    public func find(email: String) async throws -> Member? {
        try await store.withDatabase { db in
            try await db.raw(
                "SELECT id, email, password_hash, created_at, first_name, last_name FROM users WHERE email = \(bind: email)"
            ).first().map(Self.decode)
        }
    }

    /// The member with this id.
    public func find(id: UUID) async throws -> Member? {
        try await store.withDatabase { db in
            try await db.raw(
                "SELECT id, email, password_hash, created_at, first_name, last_name FROM users WHERE id = \(bind: id.uuidString.lowercased())"
            ).first().map(Self.decode)
        }
    }

    /// Replaces the stored hash if it is still `old` (a concurrent rehash wins once).
    public func replacePasswordHash(id: UUID, old: String, new: String, now: Date) async throws {
        try await store.withDatabase { db in
            try await db.raw(
                """
                UPDATE users SET password_hash = \(bind: new), updated_at = \(bind: UnixSeconds.from(now))
                WHERE id = \(bind: id.uuidString.lowercased()) AND password_hash = \(bind: old)
                """
            ).run()
        }
    }

    private static func decode(_ row: any SQLRow) throws -> Member {
        let idText = try row.decode(column: "id", as: String.self)
        guard let id = UUID(uuidString: idText) else { throw StoreCorruption(detail: "users.id is not a UUID") }
        return Member(
            id: id,
            email: try row.decode(column: "email", as: String.self),
            passwordHash: try row.decode(column: "password_hash", as: String.self),
            createdAt: UnixSeconds.date(try row.decode(column: "created_at", as: Int64.self)),
            firstName: try row.decode(column: "first_name", as: String?.self),
            lastName: try row.decode(column: "last_name", as: String?.self)
        )
    }
}

/// A stored value that does not have the shape the schema promises.
struct StoreCorruption: Error, CustomStringConvertible {
    let detail: String
    var description: String { "store corruption: \(detail)" }
}
