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

    /// Writes `entries` in one transaction.
    public func insert(_ entries: [VaultAccessEntry]) async throws {
        guard !entries.isEmpty else { return }
        try await store.transaction { db in
            for entry in entries {
                try await db.raw(
                    """
                    INSERT INTO vault_access_log (id, user_id, device_jkt, handler_id, outcome, occurred_at_ms)
                    VALUES (\(bind: UUID().uuidString.lowercased()), \(bind: entry.memberID), \(bind: entry.deviceThumbprint),
                            \(bind: entry.handlerID), \(bind: entry.outcome), \(bind: SecurityEventRepository.milliseconds(entry.occurredAt)))
                    """
                ).run()
            }
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

    /// Deletes entries older than `cutoff`; how many.
    @discardableResult
    public func prune(before cutoff: Date) async throws -> Int {
        try await store.withDatabase { db in
            try await db.raw(
                """
                DELETE FROM vault_access_log WHERE occurred_at_ms < \(bind: SecurityEventRepository.milliseconds(cutoff))
                RETURNING id
                """
            ).all().count
        }
    }
}
