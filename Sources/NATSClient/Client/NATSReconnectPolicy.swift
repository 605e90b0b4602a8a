// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// How the client reconnects after losing its server.
public struct NATSReconnectPolicy: Sendable, Hashable {
    /// Whether to reconnect at all.
    public var isEnabled: Bool
    /// Attempts per server before it is dropped from the pool; `nil` for unlimited.
    public var maxAttemptsPerServer: Int?
    /// Base wait after every server in the pool was tried once.
    public var wait: Duration
    /// Upper bound of the random jitter added to each wait.
    public var jitter: Duration
    /// Each round through the pool multiplies the wait by this factor (1 = constant wait).
    public var backoffMultiplier: Double
    /// Cap on the wait after backoff.
    public var maxWait: Duration

    /// Creates a policy. Defaults match nats.go: 60 attempts per server, 2 s wait, 100 ms jitter.
    public init(
        isEnabled: Bool = true,
        maxAttemptsPerServer: Int? = 60,
        wait: Duration = .seconds(2),
        jitter: Duration = .milliseconds(100),
        backoffMultiplier: Double = 1,
        maxWait: Duration = .seconds(30)
    ) {
        self.isEnabled = isEnabled
        self.maxAttemptsPerServer = maxAttemptsPerServer
        self.wait = wait
        self.jitter = jitter
        self.backoffMultiplier = backoffMultiplier
        self.maxWait = maxWait
    }

    /// No reconnection: the first disconnect closes the client.
    public static let disabled = NATSReconnectPolicy(isEnabled: false)

    /// The wait before attempt round `round` (0-based), plus `jitterFraction` (0..<1) of ``jitter``.
    public func delay(round: Int, jitterFraction: Double) -> Duration {
        var base = wait
        if backoffMultiplier > 1, round > 0 {
            base = wait * min(pow2(backoffMultiplier, round), 1_000_000)
        }
        if base > maxWait { base = maxWait }
        return base + jitter * max(0, min(jitterFraction, 1))
    }

    private func pow2(_ base: Double, _ exponent: Int) -> Double {
        var result = 1.0
        for _ in 0..<exponent { result *= base }
        return result
    }
}
