// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// A JSON value with ordered object members, for exact-bytes encoding and strict parsing.

/// A JSON value whose objects keep their members in order.
///
/// JOSE needs control over exact bytes (RFC 7638 thumbprints, signing inputs) and strict parsing of
/// untrusted headers (no duplicate member names). `JSONValue` gives both: ``JSONValue/serialized()``
/// writes compact JSON with members in the stored order and no insignificant whitespace, and
/// ``JSONValue/parse(_:maxDepth:)`` refuses anything RFC 8259 does not allow, plus duplicate names.
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, kept as its validated literal text so no precision is lost.
    case number(String)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object; members keep their order and names are unique.
    case object([(String, JSONValue)])

    /// Compares structurally; object members must appear in the same order.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.number(let a), .number(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }

    /// Hashes structurally, consistent with `==`.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let value): hasher.combine(1); hasher.combine(value)
        case .number(let value): hasher.combine(2); hasher.combine(value)
        case .string(let value): hasher.combine(3); hasher.combine(value)
        case .array(let values): hasher.combine(4); hasher.combine(values)
        case .object(let members):
            hasher.combine(5)
            for (name, value) in members { hasher.combine(name); hasher.combine(value) }
        }
    }

    /// An integer number value.
    public static func integer(_ value: Int64) -> JSONValue { .number(String(value)) }

    /// The member named `name` when this is an object, else `nil`.
    public subscript(name: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == name }?.1
    }

    /// The string payload, if this is a string.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The number as a `Double`, if this is a number.
    public var doubleValue: Double? {
        guard case .number(let literal) = self else { return nil }
        // Whole numbers (timestamps, counters) skip the general floating-point parser.
        if literal.utf8.count <= 15, literal != "-0", let integer = Int64(literal) { return Double(integer) }
        return Double(literal)
    }

    /// The number as an `Int64`, if this is a number written as an integer that fits.
    public var int64Value: Int64? {
        if case .number(let literal) = self { return Int64(literal) }
        return nil
    }

    /// The object members, if this is an object.
    public var objectMembers: [(String, JSONValue)]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// The compact UTF-8 serialization: no whitespace, members in stored order, `/` not escaped,
    /// control characters as `\uXXXX` (or their short escapes).
    public func serialized() -> [UInt8] {
        var output = [UInt8]()
        output.reserveCapacity(128)
        write(into: &output)
        return output
    }

    private func write(into output: inout [UInt8]) {
        switch self {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let value): output.append(contentsOf: (value ? "true" : "false").utf8)
        case .number(let literal): output.append(contentsOf: literal.utf8)
        case .string(let value): Self.writeString(value, into: &output)
        case .array(let values):
            output.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                value.write(into: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                Self.writeString(member.0, into: &output)
                output.append(UInt8(ascii: ":"))
                member.1.write(into: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Appends `value` as a JSON string: quoted, with `"`, `\\` and control characters escaped. The bytes between
    /// escapes are copied in runs from the string's contiguous UTF-8 (most strings need no escape at all).
    package static func writeString(_ value: String, into output: inout [UInt8]) {
        var value = value
        value.withUTF8 { bytes in
            output.append(UInt8(ascii: "\""))
            var runStart = 0
            for index in 0..<bytes.count {
                let byte = bytes[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                appendEscape(of: byte, to: &output)
                runStart = index + 1
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
            output.append(UInt8(ascii: "\""))
        }
    }

    /// The escape of a byte that cannot appear raw in a JSON string: `"`, `\\` or a control character.
    private static func appendEscape(of byte: UInt8, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""): output.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): output.append(UInt8(ascii: "\\"))
        case 0x0A: output.append(UInt8(ascii: "n"))
        case 0x0D: output.append(UInt8(ascii: "r"))
        case 0x09: output.append(UInt8(ascii: "t"))
        case 0x08: output.append(UInt8(ascii: "b"))
        case 0x0C: output.append(UInt8(ascii: "f"))
        default:
            output.append(contentsOf: "u00".utf8)
            output.append(hexDigits[Int(byte >> 4)])
            output.append(hexDigits[Int(byte & 0x0F)])
        }
    }

    /// Parses one JSON text strictly.
    ///
    /// Refuses: invalid UTF-8, trailing content, leading zeros, lone surrogates in escapes, control
    /// characters in strings, duplicate member names in an object, and nesting deeper than `maxDepth`.
    /// - Returns: the value, or `nil` when the text is not acceptable.
    public static func parse<Bytes: Collection<UInt8>>(_ bytes: Bytes, maxDepth: Int = 32) -> JSONValue? {
        var parser = JSONParser(bytes: Array(bytes), maxDepth: maxDepth)
        return parser.parseDocument()
    }
}

/// A recursive-descent parser for ``JSONValue``.
struct JSONParser {
    private let bytes: [UInt8]
    private let maxDepth: Int
    private var index = 0

    init(bytes: [UInt8], maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    mutating func parseDocument() -> JSONValue? {
        skipWhitespace()
        guard let value = parseValue(depth: 0) else { return nil }
        skipWhitespace()
        return index == bytes.count ? value : nil
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func consume(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard bytes.count - index >= count else { return false }
        let matches = literal.withUTF8Buffer { expected in
            expected.indices.allSatisfy { bytes[index + $0] == expected[$0] }
        }
        guard matches else { return false }
        index += count
        return true
    }

    private mutating func parseValue(depth: Int) -> JSONValue? {
        guard depth <= maxDepth, index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "{"): return parseObject(depth: depth)
        case UInt8(ascii: "["): return parseArray(depth: depth)
        case UInt8(ascii: "\""): return parseString().map(JSONValue.string)
        case UInt8(ascii: "t"): return consume("true") ? .bool(true) : nil
        case UInt8(ascii: "f"): return consume("false") ? .bool(false) : nil
        case UInt8(ascii: "n"): return consume("null") ? .null : nil
        default: return parseNumber()
        }
    }

    private mutating func parseObject(depth: Int) -> JSONValue? {
        index += 1
        var members: [(String, JSONValue)] = []
        members.reserveCapacity(8)
        // Duplicate names: a linear scan while the object is small (JOSE headers and claims have a handful of
        // members), a set once it grows.
        var names: Set<String>? = nil
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let name = parseString() else { return nil }
            if members.count >= 8 {
                if names == nil { names = Set(members.map(\.0)) }
                guard names?.insert(name).inserted == true else { return nil }
            } else if members.contains(where: { $0.0 == name }) {
                return nil
            }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
            index += 1
            skipWhitespace()
            guard let value = parseValue(depth: depth + 1) else { return nil }
            members.append((name, value))
            skipWhitespace()
            guard index < bytes.count else { return nil }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            } else {
                return nil
            }
        }
    }

    private mutating func parseArray(depth: Int) -> JSONValue? {
        index += 1
        var values: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(values)
        }
        while true {
            skipWhitespace()
            guard let value = parseValue(depth: depth + 1) else { return nil }
            values.append(value)
            skipWhitespace()
            guard index < bytes.count else { return nil }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
            } else if bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(values)
            } else {
                return nil
            }
        }
    }

    private mutating func parseHex4() -> UInt32? {
        guard bytes.count - index >= 4 else { return nil }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: return nil
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    private mutating func parseString() -> String? {
        index += 1
        // Fast path: printable ASCII up to the closing quote, no escapes (names, base64url, URIs, numbers as text).
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return String(decoding: bytes[start..<index - 1], as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 || byte >= 0x80 { break }
            index += 1
        }
        var output = Array(bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                // Validates UTF-8: decoding replaces a bad sequence, so the bytes would differ.
                let text = String(decoding: output, as: UTF8.self)
                return text.utf8.elementsEqual(output) ? text : nil
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { return nil }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): output.append(0x22)
                case UInt8(ascii: "\\"): output.append(0x5C)
                case UInt8(ascii: "/"): output.append(0x2F)
                case UInt8(ascii: "b"): output.append(0x08)
                case UInt8(ascii: "f"): output.append(0x0C)
                case UInt8(ascii: "n"): output.append(0x0A)
                case UInt8(ascii: "r"): output.append(0x0D)
                case UInt8(ascii: "t"): output.append(0x09)
                case UInt8(ascii: "u"):
                    guard var scalar = parseHex4() else { return nil }
                    if (0xD800...0xDBFF).contains(scalar) {
                        guard consume("\\u"), let low = parseHex4(), (0xDC00...0xDFFF).contains(low) else { return nil }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(scalar) {
                        return nil
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { return nil }
                    output.append(contentsOf: String(Character(unicode)).utf8)
                default: return nil
                }
            case 0x00..<0x20:
                return nil
            default:
                output.append(byte)
                index += 1
            }
        }
        return nil
    }

    private mutating func parseNumber() -> JSONValue? {
        let start = index
        func isDigit(_ i: Int) -> Bool {
            i < bytes.count && bytes[i] >= UInt8(ascii: "0") && bytes[i] <= UInt8(ascii: "9")
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard isDigit(index) else { return nil }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if isDigit(index) { return nil }
        } else {
            while isDigit(index) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard isDigit(index) else { return nil }
            while isDigit(index) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard isDigit(index) else { return nil }
            while isDigit(index) { index += 1 }
        }
        return .number(String(decoding: bytes[start..<index], as: UTF8.self))
    }
}
