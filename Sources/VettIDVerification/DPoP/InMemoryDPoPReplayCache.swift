// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

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
///
/// Thread-safe without being an actor: every operation is a few dictionary steps under a lock, so a verification
/// does not hop to another executor (two hops per proof cost more than the rest of the checks together).
public final class InMemoryDPoPReplayCache: DPoPReplayCache {
    /// The maximum number of entries kept.
    public let capacity: Int
    private let state: LockedValue<State>

    /// Creates a cache holding at most `capacity` entries (at least 1).
    public init(capacity: Int = 100_000) {
        self.capacity = max(1, capacity)
        self.state = LockedValue(State())
    }

    /// The number of entries currently held (expired ones may remain until the next insert).
    public var count: Int { state.withLock { $0.expiries.count } }

    /// How many unexpired entries were dropped to stay within ``capacity``.
    public var evictedBeforeExpiry: Int { state.withLock { $0.evictedBeforeExpiry } }

    public func contains(_ key: DPoPReplayKey, now: Date) async -> Bool {
        state.withLock { $0.contains(key, now: now) }
    }

    public func insert(_ key: DPoPReplayKey, expiresAt: Date, now: Date) async -> Bool {
        state.withLock { $0.insert(key, expiresAt: expiresAt, now: now, capacity: capacity) }
    }

    /// The entries and their insertion order.
    private struct State: Sendable {
        var expiries: [DPoPReplayKey: Date] = [:]
        /// Insertion order; entries at indices below `head` were already removed from the queue.
        var order: [(key: DPoPReplayKey, expiresAt: Date)] = []
        var head = 0
        var evictedBeforeExpiry = 0

        func contains(_ key: DPoPReplayKey, now: Date) -> Bool {
            guard let expiry = expiries[key] else { return false }
            return expiry > now
        }

        mutating func insert(_ key: DPoPReplayKey, expiresAt: Date, now: Date, capacity: Int) -> Bool {
            purgeExpired(now: now)
            if let expiry = expiries[key], expiry > now { return false }
            while expiries.count >= capacity, popOldest(now: now) {}
            expiries[key] = expiresAt
            order.append((key, expiresAt))
            return true
        }

        private mutating func purgeExpired(now: Date) {
            while head < order.count, order[head].expiresAt <= now {
                let entry = order[head]
                if expiries[entry.key] == entry.expiresAt { expiries[entry.key] = nil }
                head += 1
            }
            compactIfNeeded()
        }

        private mutating func popOldest(now: Date) -> Bool {
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

        private mutating func compactIfNeeded() {
            if head > 1024, head * 2 > order.count {
                order.removeFirst(head)
                head = 0
            }
        }
    }
}
