// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// When and how often an idempotent request is retried.
///
/// Only idempotent methods (GET, HEAD, PUT, DELETE, OPTIONS) are retried, and only after a network error or a
/// 502, 503 or 504 answer. The delay before retry `n` (1-based) is
/// `min(maxDelay, baseDelay * 2^(n-1))` scaled by a random factor in `jitter` ("equal jitter" when the range is
/// `0.5...1.0`). A `Retry-After` from the server replaces the computed delay, capped at `maxDelay`.
public struct RetryPolicy: Sendable {
    /// Total attempts including the first (1 disables retries).
    public var maxAttempts: Int
    /// The delay before the first retry, before jitter.
    public var baseDelay: Duration
    /// The largest delay between attempts.
    public var maxDelay: Duration
    /// The random factor range applied to each delay.
    public var jitter: ClosedRange<Double>
    /// HTTP statuses that are retried.
    public var retryableStatuses: Set<Int>
    /// Sleeps for a duration; injected so tests run instantly.
    public var sleep: @Sendable (Duration) async throws -> Void
    /// Returns a random number in the range; injected so tests are deterministic.
    public var random: @Sendable (ClosedRange<Double>) -> Double

    /// Creates a policy.
    public init(
        maxAttempts: Int = 3,
        baseDelay: Duration = .milliseconds(200),
        maxDelay: Duration = .seconds(5),
        jitter: ClosedRange<Double> = 0.5...1.0,
        retryableStatuses: Set<Int> = [502, 503, 504],
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        random: @escaping @Sendable (ClosedRange<Double>) -> Double = { Double.random(in: $0) }
    ) {
        self.maxAttempts = max(1, maxAttempts)
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.jitter = jitter
        self.retryableStatuses = retryableStatuses
        self.sleep = sleep
        self.random = random
    }

    /// The default: 3 attempts, 200 ms base, 5 s cap, equal jitter.
    public static var `default`: RetryPolicy { RetryPolicy() }

    /// No retries.
    public static var disabled: RetryPolicy { RetryPolicy(maxAttempts: 1) }

    /// The delay before retry number `retry` (1 for the first retry).
    /// - Parameters:
    ///   - retry: The 1-based retry number.
    ///   - retryAfter: The server's `Retry-After`, if any.
    public func delay(beforeRetry retry: Int, retryAfter: Duration? = nil) -> Duration {
        if let retryAfter { return min(retryAfter, maxDelay) }
        let exponent = min(max(retry - 1, 0), 30)
        let exponential = baseDelay * (1 << exponent)
        let capped = min(exponential, maxDelay)
        return capped * random(jitter)
    }
}
