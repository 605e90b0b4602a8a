// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// A bounded, strict reader for the CBOR subset in CBORValue.

/// Reads CBOR data items from bytes.
///
/// Definite lengths only; a length longer than the remaining input, nesting deeper than `maxDepth`,
/// invalid UTF-8 text, duplicate map keys, tags, floats and indefinite lengths are refused.
package struct CBORReader {
    package struct Failure: Error, Sendable {
        package let reason: String
    }

    private let bytes: [UInt8]
    /// The index of the next unread byte.
    package private(set) var offset: Int
    private let maxDepth: Int

    package init(_ bytes: [UInt8], offset: Int = 0, maxDepth: Int = 16) {
        self.bytes = bytes
        self.offset = offset
        self.maxDepth = maxDepth
    }

    package var isAtEnd: Bool { offset == bytes.count }

    /// Decodes exactly one item that spans all of `bytes`.
    package static func decodeSingle(_ bytes: [UInt8]) throws(Failure) -> CBORValue {
        var reader = CBORReader(bytes)
        let value = try reader.read()
        guard reader.isAtEnd else { throw Failure(reason: "trailing bytes after the CBOR item") }
        return value
    }

    package mutating func read() throws(Failure) -> CBORValue {
        try read(depth: 0)
    }

    private mutating func readByte() throws(Failure) -> UInt8 {
        guard offset < bytes.count else { throw Failure(reason: "unexpected end of CBOR input") }
        defer { offset += 1 }
        return bytes[offset]
    }

    private mutating func readBytes(_ count: UInt64) throws(Failure) -> [UInt8] {
        guard count <= UInt64(bytes.count - offset) else { throw Failure(reason: "CBOR length exceeds the input") }
        let end = offset + Int(count)
        defer { offset = end }
        return Array(bytes[offset..<end])
    }

    private mutating func readArgument(_ info: UInt8) throws(Failure) -> UInt64 {
        switch info {
        case 0..<24: return UInt64(info)
        case 24: return UInt64(try readByte())
        case 25, 26, 27:
            let count = 1 << (info - 24)
            var value: UInt64 = 0
            for _ in 0..<count { value = value << 8 | UInt64(try readByte()) }
            return value
        default: throw Failure(reason: "indefinite or reserved CBOR length")
        }
    }

    private mutating func read(depth: Int) throws(Failure) -> CBORValue {
        guard depth <= maxDepth else { throw Failure(reason: "CBOR nesting too deep") }
        let initial = try readByte()
        let major = initial >> 5
        let info = initial & 0x1F
        switch major {
        case 0: return .unsigned(try readArgument(info))
        case 1: return .negative(try readArgument(info))
        case 2: return .bytes(try readBytes(try readArgument(info)))
        case 3:
            let raw = try readBytes(try readArgument(info))
            let text = String(decoding: raw, as: UTF8.self)
            guard text.utf8.elementsEqual(raw) else { throw Failure(reason: "CBOR text is not UTF-8") }
            return .text(text)
        case 4:
            let count = try readArgument(info)
            guard count <= UInt64(bytes.count - offset) else {
                throw Failure(reason: "CBOR array longer than the input")
            }
            var items: [CBORValue] = []
            for _ in 0..<count { items.append(try read(depth: depth + 1)) }
            return .array(items)
        case 5:
            let count = try readArgument(info)
            guard count <= UInt64(bytes.count - offset) else { throw Failure(reason: "CBOR map longer than the input") }
            var entries: [CBORMapEntry] = []
            for _ in 0..<count {
                let key = try read(depth: depth + 1)
                guard !entries.contains(where: { $0.key == key }) else {
                    throw Failure(reason: "duplicate CBOR map key")
                }
                entries.append(CBORMapEntry(key: key, value: try read(depth: depth + 1)))
            }
            return .map(entries)
        case 7:
            switch info {
            case 20: return .bool(false)
            case 21: return .bool(true)
            case 22: return .null
            default: throw Failure(reason: "unsupported CBOR simple value or float")
            }
        default:
            throw Failure(reason: "CBOR tags are not supported")
        }
    }
}
