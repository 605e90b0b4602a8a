// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// How long to wait before retrying a push APNs did not take (429, 5xx, a lost connection): exponential back-off
/// with jitter, a bounded number of attempts. Pure; the randomness is passed in.
struct APNSRetryPolicy: Sendable, Equatable {
    /// Attempts per push at most, the first included.
    let maxAttempts: Int
    /// The wait after the first failed attempt, before jitter.
    let base: Duration
    /// The longest wait, before jitter.
    let cap: Duration

    init(maxAttempts: Int, base: Duration = .milliseconds(500), cap: Duration = .seconds(30)) {
        self.maxAttempts = max(1, maxAttempts)
        self.base = base
        self.cap = cap
    }

    /// The wait before the attempt after `attempt` (1 for the first) failed, or `nil` when that was the last.
    ///
    /// "Equal jitter": half of `min(cap, base × 2^(attempt-1))` plus `jitter` (in `0..<1`) times the other half, so
    /// senders that failed together spread out yet none retries at once.
    func delay(afterAttempt attempt: Int, jitter: Double) -> Duration? {
        guard attempt >= 1, attempt < maxAttempts else { return nil }
        let doubled = base * (1 << min(attempt - 1, 20))
        let ceiling = min(doubled, cap)
        let unit = min(max(jitter, 0), 1)
        return ceiling / 2 + (ceiling / 2) * unit
    }
}
