// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import BenchSupport
import Foundation
import VettIDServer

/// Prints what VaultBench measured: rates, latencies, memory, and ratios against Argon2id measured alone.
enum VaultReport {
    static func printArgon2(_ costs: Argon2Costs, parameters: Argon2Parameters, slots: Int, count: Int) {
        emit("Argon2id alone (peer), through the server's PasswordHasher:")
        emit(
            "  one at a time (\(count) hashes): \(ms(costs.secondsPerHash)) ms per hash = \(rate(1 / costs.secondsPerHash)) hashes/s; "
                + "memory \(memory(costs.serialMemory))")
        emit(
            "  \(4 * slots) requested, \(slots) in flight: \(rate(costs.ceilingPerSecond)) hashes/s (the Argon2 ceiling); "
                + "memory \(memory(costs.ceilingMemory))")
    }

    static func printPhaseHeader() {
        emit("")
        emit(
            row([
                "phase", "clients", "ops", "ops/s", "p50 ms", "p99 ms", "RSS before", "peak", "after", "bound",
                "if unbounded",
            ]))
    }

    /// One phase; `bound` is the resident size before plus `slots` hashes' memory, `if unbounded` plus one hash's
    /// memory per client.
    static func printPhase(_ name: String, _ phase: PhaseResult, argon2: Argon2Costs, slots: Int, hashBytes: Int) {
        let bound = phase.memory.before + slots * hashBytes
        let unbounded = phase.memory.before + phase.clients * hashBytes
        emit(
            row([
                name, "\(phase.clients)", "\(phase.succeeded)", rate(phase.perSecond),
                ms(phase.percentile(0.5).seconds),
                ms(phase.percentile(0.99).seconds), mib(phase.memory.before),
                mib(phase.memory.peak) + (phase.memory.peakIsExact ? "" : "*"),
                mib(phase.memory.after), mib(bound), mib(unbounded),
            ]))
    }

    static func printSummary(
        enrolled: PhaseResult, auth: [PhaseResult], argon2: Argon2Costs, slots: Int, poolThreads: Int, hashBytes: Int
    ) {
        emit(
            "(memory in MiB of the whole process: server, \(max(enrolled.clients, auth.map(\.clients).max() ?? 0)) SDK clients and load; "
                + "peak = VmHWM since the phase started; bound = before + \(slots) × \(hashBytes >> 20) MiB; "
                + "if unbounded = before + clients × \(hashBytes >> 20) MiB)")
        let ideal = Double(slots) / argon2.secondsPerHash
        emit("one Argon2id hash per enrollment (password) and per authentication (verify); against Argon2 alone:")
        emit("  enroll/s : Argon2 ceiling          \(ratio(enrolled.perSecond / argon2.ceilingPerSecond))")
        for phase in auth {
            emit(
                "  auth/s (\(phase.clients) clients) : Argon2 ceiling  \(ratio(phase.perSecond / argon2.ceilingPerSecond)); "
                    + "vs \(slots) × (1 / one hash) = \(rate(ideal))/s: \(ratio(phase.perSecond / ideal))")
        }
        if let first = auth.first, let last = auth.last, last.clients != first.clients {
            let growthFirst = first.memory.peak - first.memory.before
            let growthLast = last.memory.peak - last.memory.before
            let running = min(slots, poolThreads)
            emit(
                "peak growth over the phase's start: \(first.clients) clients +\(mib(growthFirst)) MiB, \(last.clients) clients "
                    + "+\(mib(growthLast)) MiB (\(slots) hashes = \(mib(slots * hashBytes)) MiB; \(last.clients) hashes would be "
                    + "\(mib(last.clients * hashBytes)) MiB)")
            emit(
                "hashes run on the blocking thread pool (\(poolThreads) threads), so at most min(\(slots), \(poolThreads)) = \(running) "
                    + "at once here: \(mib(running * hashBytes)) MiB")
        }
    }

    private static func row(_ cells: [String]) -> String {
        let widths = [7, 8, 6, 8, 8, 8, 11, 7, 7, 7, 13]
        return zip(cells, widths).enumerated().map { index, pair in
            let (text, width) = pair
            let padding = String(repeating: " ", count: max(0, width - text.count))
            return index == 0 ? text + padding : padding + text
        }.joined()
    }

    private static func memory(_ memory: PhaseMemory) -> String {
        "\(mib(memory.before)) → peak \(mib(memory.peak))\(memory.peakIsExact ? "" : "*") → \(mib(memory.after)) MiB"
    }

    private static func mib(_ bytes: Int) -> String { String(format: "%.0f", Double(bytes) / 1_048_576) }
    private static func rate(_ value: Double) -> String { String(format: "%.1f", value) }
    private static func ratio(_ value: Double) -> String { String(format: "%.2f", value) }
    private static func ms(_ seconds: Double) -> String { String(format: "%.0f", seconds * 1000) }
}
