// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import NIOCore

/// The acknowledgement of a JetStream publish: the stream that stored the message and its sequence there.
public struct PubAck: Sendable, Equatable, Decodable {
    /// The stream that stored the message.
    public var stream: String
    /// The message's sequence in the stream (for a duplicate: the sequence of the message stored first).
    public var sequence: UInt64
    /// Whether the message's `Nats-Msg-Id` was seen within the stream's duplicate window: the message was not
    /// stored again.
    public var duplicate: Bool

    /// Creates an acknowledgement.
    public init(stream: String, sequence: UInt64, duplicate: Bool = false) {
        self.stream = stream
        self.sequence = sequence
        self.duplicate = duplicate
    }

    private enum CodingKeys: String, CodingKey {
        case stream
        case sequence = "seq"
        case duplicate
    }

    /// Decodes `{"stream":"S","seq":1,"duplicate":true}` (`duplicate` absent means `false`).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        stream = try container.decode(String.self, forKey: .stream)
        sequence = try container.decode(UInt64.self, forKey: .sequence)
        duplicate = try container.decodeIfPresent(Bool.self, forKey: .duplicate) ?? false
    }
}

extension PubAck {
    /// Reads the answer nats-server sends for a stored message without a `JSONDecoder`: a flat object such as
    /// `{"stream":"S", "seq":1}`, `"duplicate":true` and `"domain":"D"` when they apply. `nil` for anything else (an
    /// `error` object, a nested value, an escape or a non-ASCII byte in a string, a number that is not a plain
    /// unsigned integer, a key twice, a missing field): the caller then decodes the answer the general way, which
    /// reads it or says why not.
    ///
    /// A publish's answer is the one JetStream answer per message: decoding it with `JSONDecoder` (once for the
    /// `error` envelope, once for the acknowledgement) took most of a publishing task's time.
    init?(flatJSON payload: ByteBuffer) {
        guard
            let fields = payload.withUnsafeReadableBytes({ bytes in
                var scanner = FlatJSONScanner(bytes: bytes)
                return scanner.pubAckFields()
            })
        else { return nil }
        self.init(stream: fields.stream, sequence: fields.sequence, duplicate: fields.duplicate)
    }
}

/// A scanner of one flat JSON object of strings, unsigned integers, booleans and nulls, for ``PubAck/init(flatJSON:)``.
private struct FlatJSONScanner {
    let bytes: UnsafeRawBufferPointer
    var index = 0

    init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    private enum Value {
        case string(Range<Int>)
        case number(UInt64)
        case bool(Bool)
        case null
    }

    /// The acknowledgement's fields; `nil` unless the whole input is such an object with `stream` and `seq`.
    mutating func pubAckFields() -> (stream: String, sequence: UInt64, duplicate: Bool)? {
        var stream: String?
        var sequence: UInt64?
        var duplicate: Bool?
        guard consume(UInt8(ascii: "{")) else { return nil }
        if consume(UInt8(ascii: "}")) { return nil }
        repeat {
            guard let key = string(), consume(UInt8(ascii: ":")), let value = value() else { return nil }
            if keyIs(key, "stream") {
                guard stream == nil, case .string(let range) = value else { return nil }
                stream = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
            } else if keyIs(key, "seq") {
                guard sequence == nil, case .number(let number) = value else { return nil }
                sequence = number
            } else if keyIs(key, "duplicate") {
                guard duplicate == nil else { return nil }
                switch value {
                case .bool(let flag): duplicate = flag
                case .null: duplicate = false
                default: return nil
                }
            } else if keyIs(key, "error") {
                return nil
            }
            // Any other field (`domain`, or one a later server adds) is not part of a PubAck.
        } while consume(UInt8(ascii: ","))
        guard consume(UInt8(ascii: "}")) else { return nil }
        skipWhitespace()
        guard index == bytes.count, let stream, let sequence else { return nil }
        return (stream, sequence, duplicate ?? false)
    }

    private func keyIs(_ key: Range<Int>, _ name: StaticString) -> Bool {
        key.count == name.utf8CodeUnitCount
            && name.withUTF8Buffer { name in
                zip(bytes[key], name).allSatisfy { $0 == $1 }
            }
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): index += 1
            default: return
            }
        }
    }

    /// Skips whitespace, then takes `byte` if it comes next.
    private mutating func consume(_ byte: UInt8) -> Bool {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    /// A string of printable ASCII without escapes: the range of its contents.
    private mutating func string() -> Range<Int>? {
        guard consume(UInt8(ascii: "\"")) else { return nil }
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return start..<(index - 1)
            }
            guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\\") else { return nil }
            index += 1
        }
        return nil
    }

    private mutating func value() -> Value? {
        skipWhitespace()
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "\""):
            return string().map { .string($0) }
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            return number().map { .number($0) }
        case UInt8(ascii: "t"):
            return literal("true") ? .bool(true) : nil
        case UInt8(ascii: "f"):
            return literal("false") ? .bool(false) : nil
        case UInt8(ascii: "n"):
            return literal("null") ? .null : nil
        default:
            return nil
        }
    }

    /// An unsigned integer without a leading zero, a fraction or an exponent, that fits in `UInt64`.
    private mutating func number() -> UInt64? {
        let start = index
        var number: UInt64 = 0
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
            let (shifted, overflowed) = number.multipliedReportingOverflow(by: 10)
            let (sum, carried) = shifted.addingReportingOverflow(UInt64(bytes[index] &- UInt8(ascii: "0")))
            guard !overflowed, !carried else { return nil }
            number = sum
            index += 1
        }
        if index - start > 1, bytes[start] == UInt8(ascii: "0") { return nil }
        guard index < bytes.count else { return number }
        switch bytes[index] {
        case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): return nil
        default: return number
        }
    }

    private mutating func literal(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard bytes.count - index >= count,
            word.withUTF8Buffer({ word in zip(bytes[index..<(index + count)], word).allSatisfy { $0 == $1 } })
        else { return false }
        index += count
        return true
    }
}
