import Foundation

/// Why a benchmark run could not produce valid numbers.
struct BenchFailure: Error, CustomStringConvertible {
    let message: String

    init(_ message: String) {
        self.message = message
    }

    var description: String { "VaultBench failed: \(message)" }
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}

/// Writes one line to standard output at once, unbuffered, so progress shows through a pipe (scripts, `tee`).
func emit(_ line: String = "") {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
