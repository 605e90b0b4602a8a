// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation
import SQLKit

/// The members' security events in the SQL store, newest first.
public struct SecurityEventRepository: Sendable {
    let store: any SQLStore

    /// The most events one page shows.
    public static let pageSize = 100

    public init(store: any SQLStore) { self.store = store }

    /// Records `event`.
    public func record(_ event: SecurityEvent) async throws {
        try await store.withDatabase { db in try await Self.insert(event, on: db) }
    }

    /// Records `event` inside a transaction another repository already holds.
    static func insert(_ event: SecurityEvent, on db: any SQLDatabase) async throws {
        try await db.raw(
            """
            INSERT INTO security_events (id, user_id, kind, occurred_at_ms, client_ip, client, detail)
            VALUES (\(bind: event.id.key), \(bind: event.memberID.key), \(bind: event.kind.rawValue),
                    \(bind: Self.milliseconds(event.occurredAt)), \(bind: event.origin.ip), \(bind: event.origin.client),
                    \(bind: event.detail))
            """
        ).run()
        // The member's devices hear of it through their mailboxes (docs/protocol.md 7.5), in the same transaction.
        try await MailboxRepository().enqueue(try MailboxOutboxEntry(event), on: db)
    }

    /// The member's newest `limit` events, newest first.
    public func recent(memberID: UUID, limit: Int = pageSize) async throws -> [SecurityEvent] {
        try await store.withDatabase { db in
            try await db.raw(
                """
                SELECT id, user_id, kind, occurred_at_ms, client_ip, client, detail FROM security_events
                WHERE user_id = \(bind: memberID.key) ORDER BY occurred_at_ms DESC, id DESC LIMIT \(unsafeRaw: String(max(1, limit)))
                """
            ).all().map(Self.decode)
        }
    }

    /// Events are kept to the millisecond so that two in the same second keep their order.
    static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }

    private static func decode(_ row: any SQLRow) throws -> SecurityEvent {
        guard let id = UUID(uuidString: try row.decode(column: "id", as: String.self)),
            let memberID = UUID(uuidString: try row.decode(column: "user_id", as: String.self))
        else { throw StoreCorruption(detail: "security_events holds an id that is not a UUID") }
        return SecurityEvent(
            id: id, memberID: memberID, kind: .init(rawValue: try row.decode(column: "kind", as: String.self)),
            occurredAt: Date(
                timeIntervalSince1970: Double(try row.decode(column: "occurred_at_ms", as: Int64.self)) / 1000),
            origin: .init(
                ip: try row.decode(column: "client_ip", as: String?.self),
                client: try row.decode(column: "client", as: String?.self)),
            detail: try row.decode(column: "detail", as: String?.self))
    }
}
