// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing
import VettIDCrypto
import VettIDVerification

@Suite struct InMemoryDPoPReplayCacheTests {
    let now = Date(timeIntervalSince1970: 1_700_000_000)

    @Test func recordsUntilExpiry() async {
        let cache = InMemoryDPoPReplayCache()
        let key = DPoPReplayKey(normalizedTargetURI: "https://a.example/", jti: "1")
        #expect(await cache.insert(key, expiresAt: now.addingTimeInterval(60), now: now))
        #expect(await cache.contains(key, now: now))
        #expect(await !cache.insert(key, expiresAt: now.addingTimeInterval(60), now: now.addingTimeInterval(30)))
        #expect(await !cache.contains(key, now: now.addingTimeInterval(61)))
        #expect(await cache.insert(key, expiresAt: now.addingTimeInterval(200), now: now.addingTimeInterval(61)))
    }

    @Test func keysArePerURIAndFixedSize() {
        let a = DPoPReplayKey(normalizedTargetURI: "https://a.example/", jti: "x")
        let b = DPoPReplayKey(normalizedTargetURI: "https://b.example/", jti: "x")
        let shifted = DPoPReplayKey(normalizedTargetURI: "https://a.example/x", jti: "")
        #expect(a != b)
        #expect(a != shifted)
        #expect(DPoPReplayKey(normalizedTargetURI: "u", jti: String(repeating: "j", count: 10_000)).digest.count == 32)
    }

    @Test func staysWithinCapacity() async {
        let cache = InMemoryDPoPReplayCache(capacity: 100)
        for index in 0..<1000 {
            let key = DPoPReplayKey(normalizedTargetURI: "https://a.example/", jti: String(index))
            #expect(await cache.insert(key, expiresAt: now.addingTimeInterval(60), now: now))
        }
        #expect(cache.count == 100)
        #expect(cache.evictedBeforeExpiry == 900)
        // The newest entries are still remembered.
        #expect(await cache.contains(DPoPReplayKey(normalizedTargetURI: "https://a.example/", jti: "999"), now: now))
    }

    @Test func purgesExpiredEntriesFirst() async {
        let cache = InMemoryDPoPReplayCache(capacity: 10)
        for index in 0..<10 {
            _ = await cache.insert(
                DPoPReplayKey(normalizedTargetURI: "u", jti: String(index)), expiresAt: now.addingTimeInterval(10),
                now: now)
        }
        let later = now.addingTimeInterval(20)
        #expect(
            await cache.insert(
                DPoPReplayKey(normalizedTargetURI: "u", jti: "new"), expiresAt: later.addingTimeInterval(10), now: later
            ))
        #expect(cache.count == 1)
        #expect(cache.evictedBeforeExpiry == 0)
    }
}
