import Foundation
import Logging

/// Collects log lines (message and metadata) in memory.
final class LogCapture: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [String] = []

    var lines: [String] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }

    var text: String { lines.joined(separator: "\n") }

    func append(_ line: String) {
        lock.lock()
        storage.append(line)
        lock.unlock()
    }

    /// A logger at `level` that writes into this capture.
    func logger(level: Logger.Level = .trace) -> Logger {
        var logger = Logger(label: "test.capture") { _ in CapturingLogHandler(capture: self) }
        logger.logLevel = level
        return logger
    }
}

/// A `LogHandler` that renders each entry as text into a ``LogCapture``.
struct CapturingLogHandler: LogHandler {
    let capture: LogCapture
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var all = metadata
        if let extra = event.metadata { all.merge(extra) { $1 } }
        let rendered = all.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        capture.append("\(event.level) \(event.message) \(rendered)")
    }
}
