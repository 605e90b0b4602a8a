// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// The one failure type of every benchmark executable: a run that could not produce valid numbers stops with it.

import Foundation

/// Why a benchmark run could not produce valid numbers (an error answer, a peer that did not start, a count
/// that does not add up). Printed as `<executable> failed: <message>`.
public struct BenchFailure: Error, CustomStringConvertible {
    /// What went wrong.
    public let message: String

    /// A failure with `message`.
    public init(_ message: String) {
        self.message = message
    }

    public var description: String {
        let program = CommandLine.arguments.first.map { URL(fileURLWithPath: $0).lastPathComponent } ?? "benchmark"
        return "\(program) failed: \(message)"
    }
}
