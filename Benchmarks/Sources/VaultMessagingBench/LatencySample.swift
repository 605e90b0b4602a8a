// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// Round-trip times of one run, with percentiles.
struct LatencySample: Sendable {
    private(set) var durations: [Duration] = []

    mutating func record(_ duration: Duration) { durations.append(duration) }

    mutating func merge(_ other: LatencySample) { durations += other.durations }

    var count: Int { durations.count }

    /// The `fraction` percentile (nearest rank).
    func percentile(_ fraction: Double) -> Duration {
        guard !durations.isEmpty else { return .zero }
        let sorted = durations.sorted()
        let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }
}

extension Duration {
    /// Microseconds as a Double.
    var microseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1e6 + Double(attoseconds) / 1e12
    }
}
