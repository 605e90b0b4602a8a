// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation
import SQLKit

/// The vault access log in `vault_access_log`: every handler call, newest first on the portal's security page.
public struct VaultAccessLogRepository: Sendable {
    let store: any SQLStore

    /// The most entries one page shows.
    public static let pageSize = 100

    public init(store: any SQLStore) { self.store = store }

    /// The most rows one `INSERT` writes (6 bound values each, far below either engine's limit).
    static let rowsPerStatement = 100

    /// Writes `entries` in one transaction, up to 100 rows per statement. Entries of a GUID that is no member (a
    /// request on the subject of a member deleted meanwhile) are skipped, so they cannot fail the others' batch.
    /// - Returns: how many entries were skipped.
    @discardableResult
    public func insert(_ entries: [VaultAccessEntry]) async throws -> Int {
        guard !entries.isEmpty else { return 0 }
        return try await store.transaction { db in
            var members: Set<String> = []
            // One query for the batch's members (at most `maxQueued` binds, below either engine's limit).
            var query: SQLQueryString = "SELECT id FROM users WHERE id IN ("
            for (offset, memberID) in Set(entries.map(\.memberID)).enumerated() {
                if offset > 0 { query.appendInterpolation(unsafeRaw: ", ") }
                query.appendInterpolation(bind: memberID)
            }
            query.appendInterpolation(unsafeRaw: ")")
            for row in try await db.raw(query).all() { members.insert(try row.decode(column: "id", as: String.self)) }
            let kept = entries.filter { members.contains($0.memberID) }
            let skipped = entries.count - kept.count
            let entries = kept
            var start = entries.startIndex
            while start < entries.endIndex {
                let end = min(start + Self.rowsPerStatement, entries.endIndex)
                var query: SQLQueryString =
                    "INSERT INTO vault_access_log (id, user_id, device_jkt, handler_id, outcome, occurred_at_ms) VALUES "
                for (offset, entry) in entries[start..<end].enumerated() {
                    if offset > 0 { query.appendInterpolation(unsafeRaw: ", ") }
                    query.appendInterpolation(
                        """
                        (\(bind: UUID().uuidString.lowercased()), \(bind: entry.memberID), \(bind: entry.deviceThumbprint),
                         \(bind: entry.handlerID), \(bind: entry.outcome), \(bind: SecurityEventRepository.milliseconds(entry.occurredAt)))
                        """ as SQLQueryString)
                }
                try await db.raw(query).run()
                start = end
            }
            return skipped
        }
    }

    /// The member's newest `limit` entries, newest first.
    public func recent(memberID: String, limit: Int = pageSize) async throws -> [VaultAccessEntry] {
        try await store.withDatabase { db in
            try await db.raw(
                """
                SELECT user_id, device_jkt, handler_id, outcome, occurred_at_ms FROM vault_access_log
                WHERE user_id = \(bind: memberID) ORDER BY occurred_at_ms DESC, id DESC LIMIT \(unsafeRaw: String(max(1, limit)))
                """
            ).all().map { row in
                VaultAccessEntry(
                    memberID: try row.decode(column: "user_id", as: String.self),
                    deviceThumbprint: try row.decode(column: "device_jkt", as: String?.self),
                    handlerID: try row.decode(column: "handler_id", as: String.self),
                    outcome: try row.decode(column: "outcome", as: String.self),
                    occurredAt: Date(
                        timeIntervalSince1970: Double(try row.decode(column: "occurred_at_ms", as: Int64.self)) / 1000))
            }
        }
    }

    /// Deletes entries older than `cutoff`, and each member's entries beyond their newest `maxPerMember`; how many.
    @discardableResult
    public func prune(before cutoff: Date, maxPerMember: Int = Int.max) async throws -> Int {
        try await store.withDatabase { db in
            let old = try await db.raw(
                """
                DELETE FROM vault_access_log WHERE occurred_at_ms < \(bind: SecurityEventRepository.milliseconds(cutoff))
                RETURNING id
                """
            ).all().count
            guard maxPerMember < Int.max else { return old }
            let beyond = try await db.raw(
                """
                DELETE FROM vault_access_log WHERE id IN (
                    SELECT id FROM (
                        SELECT id, ROW_NUMBER() OVER (PARTITION BY user_id ORDER BY occurred_at_ms DESC, id DESC) AS rank
                        FROM vault_access_log
                    ) AS ranked WHERE rank > \(bind: max(1, maxPerMember))
                )
                RETURNING id
                """
            ).all().count
            return old + beyond
        }
    }
}
