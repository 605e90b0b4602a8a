// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
public import Logging

/// A swift-log handler that writes one JSON object per line (`log_format: json`), for log shippers that parse
/// JSON: `{"timestamp","level","label","message", …metadata, "source"}`. Metadata values are strings, arrays or
/// objects as swift-log holds them; keys never collide with the fixed members (a metadata key `message` is
/// written as `meta_message`).
public struct JSONLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .info
    private let label: String
    private let write: @Sendable (String) -> Void

    /// A handler labelled `label` that hands each line (with its newline) to `write`.
    public init(label: String, write: @escaping @Sendable (String) -> Void) {
        self.label = label
        self.write = write
    }

    /// A handler writing to standard error.
    public static func standardError(label: String) -> JSONLogHandler {
        JSONLogHandler(label: label) { line in FileHandle.standardError.write(Data(line.utf8)) }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var object: [String: Any] = [
            "timestamp": ISO8601DateFormatter.string(
                from: Date(), timeZone: .gmt, formatOptions: [.withInternetDateTime, .withFractionalSeconds]),
            "level": event.level.rawValue, "label": label, "message": event.message.description, "source": event.source,
        ]
        for (key, value) in metadata.merging(event.metadata ?? [:], uniquingKeysWith: { $1 }) {
            object[object[key] == nil ? key : "meta_" + key] = Self.json(value)
        }
        guard
            let data = try? JSONSerialization.data(
                withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        else { return }
        write(String(decoding: data, as: UTF8.self) + "\n")
    }

    private static func json(_ value: Logger.Metadata.Value) -> Any {
        switch value {
        case .string(let text): return text
        case .stringConvertible(let convertible): return convertible.description
        case .array(let values): return values.map(json)
        case .dictionary(let entries): return entries.mapValues(json)
        }
    }
}
