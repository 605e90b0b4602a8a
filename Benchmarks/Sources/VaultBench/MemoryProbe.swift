// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation

/// This process's resident memory from `/proc/self/status` (Linux): `VmRSS` now and `VmHWM`, the peak.
struct MemorySnapshot: Sendable {
    /// `VmRSS`, in bytes.
    var resident: Int
    /// `VmHWM`, in bytes: the peak since the process started or since ``MemoryProbe/resetPeak()``.
    var peak: Int
}

enum MemoryProbe {
    /// The current snapshot, or `nil` where `/proc/self/status` does not exist.
    static func snapshot() -> MemorySnapshot? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        var resident: Int?
        var peak: Int?
        for line in text.split(separator: "\n") {
            if line.hasPrefix("VmRSS:") { resident = kibibytes(line) }
            if line.hasPrefix("VmHWM:") { peak = kibibytes(line) }
        }
        guard let resident, let peak else { return nil }
        return MemorySnapshot(resident: resident * 1024, peak: peak * 1024)
    }

    /// Resets `VmHWM` to the current `VmRSS` (`5` into `/proc/self/clear_refs`, Linux 4.0+); whether it worked.
    static func resetPeak() -> Bool {
        let descriptor = open("/proc/self/clear_refs", O_WRONLY)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return write(descriptor, "5", 1) == 1
    }

    /// `"VmRSS:   12345 kB"` → 12345.
    private static func kibibytes(_ line: Substring) -> Int? {
        line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.flatMap { Int($0) }
    }
}

/// Resident memory before, during and after one phase.
struct PhaseMemory: Sendable {
    /// `VmRSS` when the phase started.
    var before: Int
    /// The highest resident size during the phase: `VmHWM` since the phase started (reset at its start) or, where
    /// the reset is unavailable, the highest `VmRSS` sampled every 10 ms.
    var peak: Int
    /// `VmRSS` when the phase ended.
    var after: Int
    /// Whether ``peak`` is the kernel's `VmHWM` (exact) rather than sampled.
    var peakIsExact: Bool
}

/// Watches the resident size over one phase: resets the kernel's peak at the start and samples `VmRSS` every
/// 10 ms as a fallback and cross-check.
struct MemoryWatch {
    private let before: Int
    private let resetWorked: Bool
    private let sampler: Task<Int, Never>

    static func start() -> MemoryWatch {
        let resetWorked = MemoryProbe.resetPeak()
        let before = MemoryProbe.snapshot()?.resident ?? 0
        let sampler = Task {
            var highest = before
            while !Task.isCancelled {
                highest = max(highest, MemoryProbe.snapshot()?.resident ?? 0)
                do { try await Task.sleep(for: .milliseconds(10)) } catch { break }
            }
            return highest
        }
        return MemoryWatch(before: before, resetWorked: resetWorked, sampler: sampler)
    }

    func stop() async -> PhaseMemory {
        sampler.cancel()
        let sampled = await sampler.value
        let now = MemoryProbe.snapshot()
        let peak = resetWorked ? max(now?.peak ?? 0, sampled) : sampled
        return PhaseMemory(before: before, peak: peak, after: now?.resident ?? 0, peakIsExact: resetWorked)
    }
}
