// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import VettIDVerification

/// Accepted proofs of this instance in memory, bucketed by the second their protection ends, so expired proofs
/// leave in whole buckets instead of one by one. A pure value: the caller serialises access.
///
/// It is the fast front of ``LayeredDPoPReplayCache``: a replay at the same instance is refused here without a
/// database round trip, and the verifier's pre-check (`contains`) never reaches the database. It is never the
/// last word on acceptance: the shared store behind it is. Past `capacity` entries it stops remembering (the
/// store still refuses replays), so memory stays bounded whatever the traffic.
struct DPoPReplayWindows: Sendable {
    /// Width of a bucket in seconds.
    let bucketSeconds: Int64
    /// The most entries kept.
    let capacity: Int
    private var buckets: [Int64: Set<DPoPReplayKey>] = [:]
    private(set) var count = 0

    init(bucketSeconds: Int64 = 10, capacity: Int = 500_000) {
        self.bucketSeconds = max(1, bucketSeconds)
        self.capacity = max(1, capacity)
    }

    /// Whether `key` is remembered and its protection has not ended at `now` (to bucket precision: a key is
    /// kept until the end of its bucket, never dropped before its own expiry).
    func contains(_ key: DPoPReplayKey, now: Date) -> Bool {
        let current = bucket(of: now)
        return buckets.contains { $0.key >= current && $0.value.contains(key) }
    }

    /// Remembers `key` until `expiresAt`.
    /// - Returns: `false` when it is already remembered and live (a replay at this instance).
    mutating func insert(_ key: DPoPReplayKey, expiresAt: Date, now: Date) -> Bool {
        purge(now: now)
        if contains(key, now: now) { return false }
        guard count < capacity else { return true }
        buckets[bucket(of: expiresAt), default: []].insert(key)
        count += 1
        return true
    }

    /// Drops the buckets whose every entry expired before `now`.
    mutating func purge(now: Date) {
        let current = bucket(of: now)
        for (index, set) in buckets where index < current {
            buckets[index] = nil
            count -= set.count
        }
    }

    /// The bucket holding instants up to the end of their `bucketSeconds` window.
    private func bucket(of date: Date) -> Int64 {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.up))
        return (seconds + bucketSeconds - 1) / bucketSeconds
    }
}
