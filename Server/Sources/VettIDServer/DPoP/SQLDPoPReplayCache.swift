// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import NIOConcurrencyHelpers
import SQLKit
import VettIDCore
import VettIDCrypto
import VettIDVerification

/// The DPoP `jti` replay cache in the SQL store, shared by every server instance behind a load balancer.
///
/// `insert` is one `INSERT … ON CONFLICT DO UPDATE … WHERE <expired> RETURNING` (no transaction, one round trip):
/// of two requests carrying the same proof, on any instances, exactly one is accepted. Inserts that arrive while a
/// write is in flight go together into the next statement (``DPoPReplayBatcher``): each request still waits for the
/// statement that holds its own proof. Expired entries are purged in batches every `purgeInterval`
/// inserts, so the table holds at most about one proof lifetime of traffic.
struct SQLDPoPReplayCache: DPoPReplayCache {
    let store: any SQLStore
    let purgeInterval: Int
    private let inserts = NIOLockedValueBox(0)

    private let batcher: DPoPReplayBatcher

    init(store: any SQLStore, purgeInterval: Int = 1_000) {
        self.store = store
        self.purgeInterval = purgeInterval
        let inserts = self.inserts
        self.batcher = DPoPReplayBatcher { entries, nowSeconds in
            // Purge expired entries each time another `purgeInterval` entries went in.
            let purge = inserts.withLockedValue { count -> Bool in
                let before = count / purgeInterval
                count += entries.count
                return count / purgeInterval > before
            }
            return await Self.write(entries, nowSeconds: nowSeconds, store: store, purge: purge)
        }
    }

    /// Creates the table in a store of its own (the main store's migrations create it there).
    static func prepareOwnStore(_ store: any SQLStore) async throws {
        try await store.withDatabase { db in
            try await db.raw(
                "CREATE TABLE IF NOT EXISTS dpop_replay (key_hash TEXT PRIMARY KEY, expires_at \(unsafeRaw: store.engine.bigint) NOT NULL)"
            ).run()
            try await db.raw("CREATE INDEX IF NOT EXISTS dpop_replay_expiry_idx ON dpop_replay(expires_at)").run()
        }
    }

    func contains(_ key: DPoPReplayKey, now: Date) async -> Bool {
        let row = try? await store.withDatabase { db in
            try await db.raw(
                "SELECT key_hash FROM dpop_replay WHERE key_hash = \(bind: Hex.encode(key.digest)) AND expires_at > \(bind: UnixSeconds.from(now))"
            ).first()
        }
        return row != nil
    }

    func insert(_ key: DPoPReplayKey, expiresAt: Date, now: Date) async -> Bool {
        let nowSeconds = UnixSeconds.from(now)
        let entry = DPoPReplayBatch.Entry(
            hash: Hex.encode(key.digest), expiresAt: max(UnixSeconds.from(expiresAt), nowSeconds + 1))
        return await batcher.insert(entry, nowSeconds: nowSeconds)
    }

    /// Writes a batch in one statement: insert each entry, or take over an expired entry for the same key (it no
    /// longer protects anything); a live entry returns no row. Returns the hashes recorded, `nil` on an error.
    private static func write(
        _ entries: [DPoPReplayBatch.Entry], nowSeconds: Int64, store: any SQLStore, purge: Bool
    ) async -> Set<String>? {
        var statement = SQLQueryString("INSERT INTO dpop_replay (key_hash, expires_at) VALUES ")
        for (index, entry) in entries.enumerated() {
            statement.appendLiteral(index == 0 ? "(" : ", (")
            statement.appendInterpolation(bind: entry.hash)
            statement.appendLiteral(", ")
            statement.appendInterpolation(bind: entry.expiresAt)
            statement.appendLiteral(")")
        }
        statement.appendLiteral(" ON CONFLICT (key_hash) DO UPDATE SET expires_at = excluded.expires_at")
        statement.appendLiteral(" WHERE dpop_replay.expires_at <= ")
        statement.appendInterpolation(bind: nowSeconds)
        statement.appendLiteral(" RETURNING key_hash")
        let insert = statement
        do {
            return try await store.withDatabase { db in
                if purge { try await db.raw("DELETE FROM dpop_replay WHERE expires_at <= \(bind: nowSeconds)").run() }
                let rows = try await db.raw(insert).all()
                return Set(try rows.map { try $0.decode(column: "key_hash", as: String.self) })
            }
        } catch {
            // Fail closed: if the cache cannot record the proofs, none is accepted.
            return nil
        }
    }
}
