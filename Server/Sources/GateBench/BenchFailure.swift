/// Why a benchmark run could not produce valid numbers.
struct BenchFailure: Error, CustomStringConvertible {
    let message: String

    init(_ message: String) {
        self.message = message
    }

    var description: String { "GateBench failed: \(message)" }
}
