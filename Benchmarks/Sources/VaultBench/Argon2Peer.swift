// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import BenchSupport
import VettIDServer

/// The peer of the vault flows: Argon2id at the server's parameters through the server's own `PasswordHasher`,
/// measured alone in this process before the server starts.
struct Argon2Costs: Sendable {
    /// Seconds per hash, one hash at a time.
    var secondsPerHash: Double
    /// Hashes per second with `maxConcurrentHashes` hashes in flight (more requested than allowed): the most any
    /// flow that hashes once per operation can reach on this machine.
    var ceilingPerSecond: Double
    /// Memory while one hash runs at a time.
    var serialMemory: PhaseMemory
    /// Memory while the ceiling was measured.
    var ceilingMemory: PhaseMemory
}

enum Argon2Peer {
    /// Hashes `serialCount` passwords one after the other, then `4 × maxConcurrentHashes` at once.
    static func measure(parameters: Argon2Parameters, maxConcurrentHashes: Int, serialCount: Int) async throws
        -> Argon2Costs
    {
        let clock = ContinuousClock()
        let password = "Quartz-lantern-meadow-97"
        let single = PasswordHasher(configuration: .init(parameters: parameters, maxConcurrentHashes: 1))
        _ = try await single.hash(password)  // warm-up: thread pool, allocator

        let serialWatch = MemoryWatch.start()
        let serialStart = clock.now
        for _ in 0..<serialCount { _ = try await single.hash(password) }
        let serialElapsed = clock.now - serialStart
        let serialMemory = await serialWatch.stop()

        let limited = PasswordHasher(
            configuration: .init(parameters: parameters, maxConcurrentHashes: maxConcurrentHashes))
        let burst = 4 * max(1, maxConcurrentHashes)
        let ceilingWatch = MemoryWatch.start()
        let ceilingStart = clock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<burst { group.addTask { _ = try await limited.hash(password) } }
            try await group.waitForAll()
        }
        let ceilingElapsed = clock.now - ceilingStart
        let ceilingMemory = await ceilingWatch.stop()

        return Argon2Costs(
            secondsPerHash: serialElapsed.seconds / Double(serialCount),
            ceilingPerSecond: Double(burst) / ceilingElapsed.seconds,
            serialMemory: serialMemory, ceilingMemory: ceilingMemory)
    }
}
