// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Testing
import VettIDCore
import VettIDTestSupport

@testable import VettIDServer

@Suite struct RateLimiterTests {
    @Test func allowsTheCapacityThenLimitsWithRetryAfter() {
        let clock = ManualClock().wall
        let limiter = RateLimiter(rule: .init(capacity: 3, window: .seconds(60)), clock: clock)
        for _ in 0..<3 { #expect(limiter.consume("ip:1") == .allowed) }
        #expect(limiter.consume("ip:1") == .limited(retryAfterSeconds: 20))
        #expect(limiter.consume("ip:2") == .allowed, "keys are independent")
        clock.advance(20)
        #expect(limiter.consume("ip:1") == .allowed, "one token refilled after 60/3 s")
        #expect(limiter.consume("ip:1") == .limited(retryAfterSeconds: 20))
    }

    @Test func checkDoesNotConsumeAndResetForgets() {
        let clock = ManualClock().wall
        let limiter = RateLimiter(rule: .init(capacity: 1, window: .seconds(10)), clock: clock)
        #expect(limiter.check("a") == .allowed)
        #expect(limiter.check("a") == .allowed)
        #expect(limiter.consume("a") == .allowed)
        #expect(limiter.check("a") == .limited(retryAfterSeconds: 10))
        limiter.reset("a")
        #expect(limiter.check("a") == .allowed)
    }

    @Test func memoryIsBounded() {
        let clock = ManualClock().wall
        let limiter = RateLimiter(rule: .init(capacity: 2, window: .seconds(60)), maxKeys: 100, clock: clock)
        for index in 0..<10_000 { _ = limiter.consume("ip:\(index)") }
        #expect(limiter.trackedKeys <= 100)
        // The most recent key is still limited correctly after evictions.
        #expect(limiter.consume("ip:9999") == .allowed)
        #expect(limiter.consume("ip:9999") == .limited(retryAfterSeconds: 30))
    }
}
