// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// Runs a fixed amount of work on the current task or spread over several tasks and reports the rate.

import BenchSupport

enum Throughput {
    /// A rate and what the work produced, in index order.
    struct Outcome<Output: Sendable>: Sendable {
        /// Operations per second of wall-clock time.
        let perSecond: Double
        /// The wall-clock time the work took.
        let elapsed: Duration
        /// One output per operation.
        let outputs: [Output]
    }

    /// Runs `work` over `0..<count`: on the current task when `tasks` is 1, otherwise as `tasks` child tasks
    /// with contiguous slices. `work` returns one output per index of its slice.
    static func measure<Output: Sendable>(
        count: Int, tasks: Int, _ work: @escaping @Sendable (Range<Int>) async throws -> [Output]
    ) async throws -> Outcome<Output> {
        let clock = ContinuousClock()
        let start = clock.now
        let outputs: [Output]
        if tasks <= 1 {
            outputs = try await work(0..<count)
        } else {
            outputs = try await withThrowingTaskGroup(of: (Int, [Output]).self) { group in
                for slice in slices(count: count, parts: tasks) {
                    group.addTask { (slice.lowerBound, try await work(slice)) }
                }
                var parts: [(Int, [Output])] = []
                for try await part in group { parts.append(part) }
                return parts.sorted { $0.0 < $1.0 }.flatMap(\.1)
            }
        }
        let elapsed = clock.now - start
        return Outcome(perSecond: Double(count) / elapsed.seconds, elapsed: elapsed, outputs: outputs)
    }

    /// `0..<count` cut into `parts` contiguous ranges whose sizes differ by at most one.
    static func slices(count: Int, parts: Int) -> [Range<Int>] {
        let parts = max(1, min(parts, count))
        return (0..<parts).map { part in (count * part / parts)..<(count * (part + 1) / parts) }
    }
}
