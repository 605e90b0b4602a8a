import Foundation
import NIOConcurrencyHelpers
import SQLKit
import VettIDCrypto
import VettIDVerification

/// The DPoP `jti` replay cache in the SQL store, shared by every server instance behind a load balancer.
///
/// `insert` is one `INSERT … ON CONFLICT DO UPDATE … WHERE <expired> RETURNING` (no transaction, one round trip):
/// of two requests carrying the same proof, on any instances, exactly one is accepted. Expired entries are purged in batches every `purgeInterval`
/// inserts, so the table holds at most about one proof lifetime of traffic.
struct SQLDPoPReplayCache: DPoPReplayCache {
    let store: any SQLStore
    let purgeInterval: Int
    private let inserts = NIOLockedValueBox(0)

    init(store: any SQLStore, purgeInterval: Int = 1_000) {
        self.store = store
        self.purgeInterval = purgeInterval
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
                "SELECT key_hash FROM dpop_replay WHERE key_hash = \(bind: Hex.encode(key.digest)) AND expires_at > \(bind: UnixTime.from(now))"
            ).first()
        }
        return row != nil
    }

    func insert(_ key: DPoPReplayKey, expiresAt: Date, now: Date) async -> Bool {
        let hash = Hex.encode(key.digest)
        let nowSeconds = UnixTime.from(now)
        let expires = max(UnixTime.from(expiresAt), nowSeconds + 1)
        let count = inserts.withLockedValue { value -> Int in
            value += 1
            return value
        }
        do {
            return try await store.withDatabase { db in
                if count % purgeInterval == 0 {
                    try await db.raw("DELETE FROM dpop_replay WHERE expires_at <= \(bind: nowSeconds)").run()
                }
                // One statement: insert, or take over an expired entry for the same key (it no longer protects
                // anything); a live entry makes it return no row.
                let inserted = try await db.raw(
                    """
                    INSERT INTO dpop_replay (key_hash, expires_at) VALUES (\(bind: hash), \(bind: expires))
                    ON CONFLICT (key_hash) DO UPDATE SET expires_at = \(bind: expires)
                    WHERE dpop_replay.expires_at <= \(bind: nowSeconds)
                    RETURNING key_hash
                    """
                ).first()
                return inserted != nil
            }
        } catch {
            // Fail closed: if the cache cannot record the proof, the proof is not accepted.
            return false
        }
    }
}
