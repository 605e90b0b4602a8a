// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// Log records kept in memory by swift-log's InMemoryLogHandler, for tests that read what was logged.

public import InMemoryLogging
public import Logging

/// Keeps what loggers write in memory, in swift-log's `InMemoryLogHandler`, so a test can read it back.
///
/// Every logger made by ``logger(label:level:)`` writes into the same store. ``lines`` renders each record with
/// its level, message, metadata (the logger's and the call's, sorted by key) and error, so an assertion that a
/// secret is absent from ``text`` covers all of them:
///
/// ```swift
/// let logs = LogCapture()
/// let manager = AuthManager(configuration: .init(..., logger: logs.logger()))
/// try await manager.login(email: email, password: password)
/// #expect(!logs.text.contains(password))
/// ```
///
/// ## Topics
///
/// ### Making loggers
/// - ``init()``
/// - ``logger(label:level:)``
///
/// ### Reading records
/// - ``entries``
/// - ``lines``
/// - ``text``
/// - ``render(_:)``
/// - ``clear()``
public final class LogCapture: Sendable {
    /// The handler that keeps the records; the loggers use copies of it, which share its store.
    public let handler: InMemoryLogHandler

    /// Creates an empty capture.
    public init() {
        handler = InMemoryLogHandler()
    }

    /// A logger that writes into this capture.
    ///
    /// - Parameters:
    ///   - label: The logger's label (not part of the rendered lines).
    ///   - level: The lowest level kept; `.trace` (everything) unless given.
    public func logger(label: String = "test.capture", level: Logger.Level = .trace) -> Logger {
        var logger = Logger(label: label) { [handler] _ in handler }
        logger.logLevel = level
        return logger
    }

    /// The records logged so far, oldest first, with their metadata merged as logged.
    public var entries: [InMemoryLogHandler.Entry] { handler.entries }

    /// The records logged so far, each rendered by ``render(_:)``.
    public var lines: [String] { entries.map(Self.render) }

    /// ``lines`` joined with newlines: everything logged, to search with `contains`.
    public var text: String { lines.joined(separator: "\n") }

    /// Forgets the records logged so far.
    public func clear() { handler.clear() }

    /// One record as a line: `level message key=value …`, metadata sorted by key, then `error=…` when the record
    /// carries an error.
    public static func render(_ entry: InMemoryLogHandler.Entry) -> String {
        var line = "\(entry.level) \(entry.message)"
        for (key, value) in entry.metadata.sorted(by: { $0.key < $1.key }) {
            line += " \(key)=\(value)"
        }
        if let error = entry.error {
            line += " error=\(error)"
        }
        return line
    }
}
