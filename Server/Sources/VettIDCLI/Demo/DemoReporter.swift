// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import VettIDCore

/// Prints one line per demo step — what happened and how long it took — or collects them as JSON.
@MainActor
final class DemoReporter {
    /// One step of the `--output json` document.
    struct Step: Encodable {
        let step: String
        let ok: Bool
        let detail: String
        let ms: Double
    }

    /// The `--output json` document.
    struct Document: Encodable {
        let ok: Bool
        let steps: [Step]
        let totalMs: Double
    }

    private let format: OutputFormat
    private var steps: [Step] = []
    private(set) var failures = 0

    init(format: OutputFormat) { self.format = format }

    /// Runs `body` as a step named `name`; its result is the detail shown. A throwing step is reported and
    /// counted, and rethrown so the demo stops there.
    @discardableResult
    func step<Result>(_ name: String, _ body: () async throws -> (Result, String)) async throws -> Result {
        let started = ContinuousClock.now
        do {
            let (result, detail) = try await body()
            record(name: name, ok: true, detail: detail, elapsed: ContinuousClock.now - started)
            return result
        } catch {
            failures += 1
            record(name: name, ok: false, detail: "\(error)", elapsed: ContinuousClock.now - started)
            throw error
        }
    }

    /// A heading between groups of steps.
    func section(_ title: String) {
        if format == .human { print("\n\(title)") }
    }

    /// Prints the JSON document (JSON mode) or the summary line (human mode).
    func finish(total: Duration) {
        switch format {
        case .human:
            print("\n\(failures == 0 ? "demo complete" : "demo FAILED"): \(steps.count) steps in \(Self.format(total))")
        case .json:
            let encoder = Output.encoder
            encoder.outputFormatting.insert(.prettyPrinted)
            let document = Document(ok: failures == 0, steps: steps, totalMs: Self.milliseconds(total))
            let data = (try? encoder.encode(document)) ?? Data("{}".utf8)
            print(String(decoding: data, as: UTF8.self))
        }
    }

    private func record(name: String, ok: Bool, detail: String, elapsed: Duration) {
        steps.append(Step(step: name, ok: ok, detail: detail, ms: Self.milliseconds(elapsed)))
        guard format == .human else { return }
        let mark = ok ? "✔" : "✘"
        let padded = name.padding(toLength: max(28, name.count), withPad: " ", startingAt: 0)
        print("  \(mark) \(padded) \(detail)  (\(Self.format(elapsed)))")
    }

    static func milliseconds(_ duration: Duration) -> Double {
        let ms = Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
        return (ms * 100).rounded() / 100
    }

    static func format(_ duration: Duration) -> String {
        let ms = milliseconds(duration)
        return ms >= 1000 ? String(format: "%.2f s", ms / 1000) : String(format: "%.1f ms", ms)
    }
}
