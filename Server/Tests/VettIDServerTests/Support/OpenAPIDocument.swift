// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation

/// Reads parts of the repository's `openapi.yaml` for contract tests: a block by its path of keys, a key's scalar
/// value, a flow list (`[a, b]`). Enough for the spec as it is written (block mappings, two-space indentation),
/// not a YAML parser.
struct OpenAPIDocument {
    static let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../../openapi.yaml").standardizedFileURL

    let lines: [Substring]

    init() throws {
        let text = try String(contentsOf: Self.url, encoding: .utf8)
        lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    }

    private init(lines: [Substring]) { self.lines = lines }

    /// The block under `keys` (each key a direct child of the block before), or `nil`.
    func block(_ keys: String...) -> OpenAPIDocument? {
        var scope = lines[...]
        for key in keys {
            guard let childIndent = scope.first(where: Self.isContent).map(Self.indent(of:)),
                let start = scope.firstIndex(where: { Self.indent(of: $0) == childIndent && Self.key(of: $0) == key })
            else { return nil }
            let body = scope[(start + 1)...]
            let end = body.firstIndex { Self.isContent($0) && Self.indent(of: $0) <= childIndent } ?? body.endIndex
            scope = body[..<end]
        }
        return OpenAPIDocument(lines: Array(scope))
    }

    /// The scalar value of the direct child `key` of this block (quotes removed), or `nil`.
    func value(_ key: String) -> String? {
        guard let line = directChildren.first(where: { Self.key(of: $0) == key }),
            let colon = line.firstIndex(of: ":")
        else { return nil }
        var value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        if value.count >= 2, let first = value.first, first == "'" || first == "\"", value.last == first {
            value = String(value.dropFirst().dropLast()).replacingOccurrences(of: "''", with: "'")
        }
        return value.isEmpty ? nil : value
    }

    /// The items of a flow list value (`required: [a, b]`), or `nil`.
    func list(_ key: String) -> [String]? {
        guard let text = value(key), text.hasPrefix("["), text.hasSuffix("]") else { return nil }
        return text.dropFirst().dropLast().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// The whole block's text (descriptions included).
    var text: String { lines.joined(separator: "\n") }

    private var directChildren: [Substring] {
        guard let indent = lines.first(where: Self.isContent).map(Self.indent(of:)) else { return [] }
        return lines.filter { Self.indent(of: $0) == indent }
    }

    private static func indent(of line: Substring) -> Int { line.prefix { $0 == " " }.count }

    private static func isContent(_ line: Substring) -> Bool { !line.allSatisfy { $0 == " " } }

    /// The key of a `key:` or `key: value` line (a quoted key unquoted), or `nil`.
    private static func key(of line: Substring) -> String? {
        let trimmed = line.drop { $0 == " " }
        guard !trimmed.hasPrefix("-"), !trimmed.hasPrefix("#"), let colon = trimmed.firstIndex(of: ":") else {
            return nil
        }
        var key = String(trimmed[..<colon])
        if key.count >= 2, let first = key.first, first == "'" || first == "\"", key.last == first {
            key = String(key.dropFirst().dropLast())
        }
        return key
    }
}
