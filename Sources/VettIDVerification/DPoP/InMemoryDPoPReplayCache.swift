import VettIDCrypto

// A bounded in-memory replay cache for one server instance.

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A ``DPoPReplayCache`` in memory, bounded to ``capacity`` entries.
///
/// Expired entries are purged as new ones arrive. When the cache is full of unexpired entries, the
/// oldest inserted entry is evicted: memory stays bounded, at the cost of forgetting the oldest proof
/// early. Size it above the expected number of proofs per acceptance window (requests per second ×
/// window seconds); ``evictedBeforeExpiry`` counts early evictions so operators can alert on them.
public actor InMemoryDPoPReplayCache: DPoPReplayCache {
    /// The maximum number of entries kept.
    public let capacity: Int
    private var expiries: [DPoPReplayKey: Date] = [:]
    /// Insertion order; entries at indices below `head` were already removed from the queue.
    private var order: [(key: DPoPReplayKey, expiresAt: Date)] = []
    private var head = 0
    /// How many unexpired entries were dropped to stay within ``capacity``.
    public private(set) var evictedBeforeExpiry = 0

    /// Creates a cache holding at most `capacity` entries (at least 1).
    public init(capacity: Int = 100_000) {
        self.capacity = max(1, capacity)
    }

    /// The number of entries currently stored (including ones that expired but were not purged yet).
    public var count: Int { expiries.count }

    public func contains(_ key: DPoPReplayKey, now: Date) -> Bool {
        guard let expiry = expiries[key] else { return false }
        return expiry > now
    }

    public func insert(_ key: DPoPReplayKey, expiresAt: Date, now: Date) -> Bool {
        purgeExpired(now: now)
        if let expiry = expiries[key], expiry > now { return false }
        while expiries.count >= capacity, popOldest(now: now) {}
        expiries[key] = expiresAt
        order.append((key, expiresAt))
        return true
    }

    /// Drops entries from the front of the insertion queue while they have expired.
    private func purgeExpired(now: Date) {
        while head < order.count, order[head].expiresAt <= now {
            let entry = order[head]
            if expiries[entry.key] == entry.expiresAt { expiries[entry.key] = nil }
            head += 1
        }
        compactIfNeeded()
    }

    /// Removes the oldest queued entry; returns `false` when the queue is empty.
    private func popOldest(now: Date) -> Bool {
        guard head < order.count else { return false }
        let entry = order[head]
        head += 1
        if expiries[entry.key] == entry.expiresAt {
            expiries[entry.key] = nil
            if entry.expiresAt > now { evictedBeforeExpiry += 1 }
        }
        compactIfNeeded()
        return true
    }

    private func compactIfNeeded() {
        if head > 1024, head * 2 > order.count {
            order.removeFirst(head)
            head = 0
        }
    }
}
