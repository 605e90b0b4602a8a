// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Testing
import VettIDSession

@Suite struct HandshakeNonceCacheTests {
    @Test func aNonceIsKept600SecondsThenForgotten() {
        let cache = InMemoryHandshakeNonceCache()
        let nonce = countingBytes(from: 0, count: 32)
        #expect(!cache.contains(nonce, nowMilliseconds: 1000))
        #expect(cache.insert(nonce, nowMilliseconds: 1000))
        #expect(!cache.insert(nonce, nowMilliseconds: 2000))
        #expect(cache.contains(nonce, nowMilliseconds: 600_999))
        #expect(!cache.contains(nonce, nowMilliseconds: 601_000))
        #expect(cache.count == 0)
        #expect(cache.insert(nonce, nowMilliseconds: 601_000))
    }

    @Test func theOldestIsDroppedAtCapacity() {
        let cache = InMemoryHandshakeNonceCache(capacity: 3)
        let nonces = (0..<4).map { countingBytes(from: UInt8($0 * 32), count: 32) }
        for (index, nonce) in nonces.enumerated() {
            #expect(cache.insert(nonce, nowMilliseconds: UInt64(index)))
        }
        #expect(cache.count == 3)
        #expect(!cache.contains(nonces[0], nowMilliseconds: 10))
        #expect(nonces[1...].allSatisfy { cache.contains($0, nowMilliseconds: 10) })
    }

    @Test func manyExpiriesStayBounded() {
        let cache = InMemoryHandshakeNonceCache(capacity: 100, lifetime: .milliseconds(10))
        for index in 0..<5000 {
            let nonce = [UInt8(index & 0xFF), UInt8(index >> 8)] + [UInt8](repeating: 0, count: 30)
            #expect(cache.insert(nonce, nowMilliseconds: UInt64(index)))
        }
        #expect(cache.count <= 100)
    }
}
