// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Logging

/// How a swift-log record becomes an entry of Apple's unified logging system (Console.app): whether it is
/// written, at which `OSLogType`, and as which text. `OSLogHandler` (Apple platforms) only hands the result to
/// `os.Logger`; every decision lives here so it is tested on every platform.
///
/// - Levels: `trace` and `debug` are `.debug`; `info` is `.info`; `notice` and `warning` are `.default`
///   (persisted); `error` is `.error`; `critical` is `.fault`.
/// - ``Threshold/off`` writes nothing, whatever a logger's own level says.
/// - Text: the message, then the metadata as `key=value` pairs sorted by key. The handler writes the message as
///   public and the metadata as private (Console shows `<private>` unless a profile reveals it), so identifiers
///   a record carries stay on the device.
public struct UnifiedLogPolicy: Sendable, Equatable {
    /// The lowest level written, or nothing at all.
    public enum Threshold: Sendable, Equatable {
        /// Writes nothing.
        case off
        /// Writes records at this level and above.
        case minimum(Logger.Level)
    }

    /// The unified logging system's types (`OSLogType`), named here so the mapping is tested off Apple platforms.
    public enum EntryType: Sendable, Equatable {
        case debug, info, `default`, error, fault
    }

    /// One entry to write.
    public struct Entry: Sendable, Equatable {
        public let type: EntryType
        /// Written as public.
        public let message: String
        /// Written as private; empty when the record has no metadata.
        public let metadata: String
    }

    /// The lowest level written.
    public let threshold: Threshold

    /// - Parameter threshold: Default `.minimum(.info)`; `.off` silences the SDK in Console.app.
    public init(threshold: Threshold = .minimum(.info)) {
        self.threshold = threshold
    }

    /// The level a swift-log handler reports (`critical` when off: swift-log has no "off", and the handler
    /// checks ``entry(level:message:metadata:)`` anyway).
    public var handlerLevel: Logger.Level {
        switch threshold {
        case .off: .critical
        case .minimum(let level): level
        }
    }

    /// The entry for a record, or `nil` when the threshold keeps it out.
    public func entry(level: Logger.Level, message: Logger.Message, metadata: Logger.Metadata) -> Entry? {
        guard case .minimum(let minimum) = threshold, level >= minimum else { return nil }
        return Entry(type: Self.entryType(for: level), message: message.description, metadata: Self.render(metadata))
    }

    /// The unified logging type of a swift-log level.
    public static func entryType(for level: Logger.Level) -> EntryType {
        switch level {
        case .trace, .debug: .debug
        case .info: .info
        case .notice, .warning: .default
        case .error: .error
        case .critical: .fault
        }
    }

    /// `key=value` pairs sorted by key, space-separated.
    public static func render(_ metadata: Logger.Metadata) -> String {
        metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
    }
}
