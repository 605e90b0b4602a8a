// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import NIOConcurrencyHelpers
public import VettIDCore

/// Token-bucket rate limits per key (an IP address, an account), with bounded memory.
///
/// Each key has a bucket of `capacity` tokens refilled continuously at `capacity / window`. Memory is bounded
/// by `maxKeys`: when full, buckets that have refilled completely (they carry no information) are dropped
/// first, then the least recently touched.
public final class RateLimiter: Sendable {
    /// One limit: `capacity` events per `window`.
    public struct Rule: Sendable, Equatable {
        public var capacity: Int
        public var window: Duration

        public init(capacity: Int, window: Duration) {
            self.capacity = capacity
            self.window = window
        }

        var refillPerSecond: Double {
            Double(capacity) / (Double(window.components.seconds) + Double(window.components.attoseconds) / 1e18)
        }
    }

    /// The outcome of asking for a token.
    public enum Decision: Sendable, Equatable {
        case allowed
        /// Refused; a token will be available after this many whole seconds.
        case limited(retryAfterSeconds: Int)
    }

    private struct Bucket {
        var tokens: Double
        var updated: Date
    }

    private let rule: Rule
    private let maxKeys: Int
    private let clock: any WallClock
    private let buckets = NIOLockedValueBox([String: Bucket]())

    public init(rule: Rule, maxKeys: Int = 100_000, clock: any WallClock = SystemWallClock()) {
        self.rule = rule
        self.maxKeys = maxKeys
        self.clock = clock
    }

    /// Takes one token for `key` if available.
    public func consume(_ key: String) -> Decision {
        let now = clock.now()
        return buckets.withLockedValue { buckets in
            var bucket = refilled(buckets[key], now: now)
            if bucket.tokens >= 1 {
                bucket.tokens -= 1
                store(bucket, for: key, in: &buckets, now: now)
                return .allowed
            }
            store(bucket, for: key, in: &buckets, now: now)
            let wait = (1 - bucket.tokens) / rule.refillPerSecond
            return .limited(retryAfterSeconds: max(1, Int(wait.rounded(.up))))
        }
    }

    /// Whether `key` has a token left, without taking it.
    public func check(_ key: String) -> Decision {
        let now = clock.now()
        return buckets.withLockedValue { buckets in
            let bucket = refilled(buckets[key], now: now)
            if bucket.tokens >= 1 { return .allowed }
            let wait = (1 - bucket.tokens) / rule.refillPerSecond
            return .limited(retryAfterSeconds: max(1, Int(wait.rounded(.up))))
        }
    }

    /// Forgets `key` (e.g. an account's failures after a successful login).
    public func reset(_ key: String) {
        _ = buckets.withLockedValue { $0.removeValue(forKey: key) }
    }

    /// Number of keys currently remembered.
    public var trackedKeys: Int { buckets.withLockedValue { $0.count } }

    private func refilled(_ bucket: Bucket?, now: Date) -> Bucket {
        guard var bucket else { return Bucket(tokens: Double(rule.capacity), updated: now) }
        let elapsed = max(0, now.timeIntervalSince(bucket.updated))
        bucket.tokens = min(Double(rule.capacity), bucket.tokens + elapsed * rule.refillPerSecond)
        bucket.updated = now
        return bucket
    }

    private func store(_ bucket: Bucket, for key: String, in buckets: inout [String: Bucket], now: Date) {
        if buckets[key] == nil, buckets.count >= maxKeys { evict(from: &buckets, now: now) }
        buckets[key] = bucket
    }

    private func evict(from buckets: inout [String: Bucket], now: Date) {
        let full = buckets.filter { refilled($0.value, now: now).tokens >= Double(rule.capacity) }.map(\.key)
        for key in full { buckets.removeValue(forKey: key) }
        if buckets.count >= maxKeys, let oldest = buckets.min(by: { $0.value.updated < $1.value.updated })?.key {
            buckets.removeValue(forKey: oldest)
        }
    }
}
