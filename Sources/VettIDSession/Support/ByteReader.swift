// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// A strict big-endian reader for the handshake and envelope layouts.

/// Reads big-endian integers and length-prefixed fields from bytes; every read returns nil past the end, so a
/// parser turns any shortfall into its own typed error.
struct ByteReader {
    private let bytes: [UInt8]
    private(set) var offset = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Whether every byte has been read.
    var isAtEnd: Bool { offset == bytes.count }

    mutating func u8() -> UInt8? {
        guard offset < bytes.count else { return nil }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func u16() -> UInt16? { integer(2).map { UInt16($0) } }

    mutating func u32() -> UInt32? { integer(4).map { UInt32($0) } }

    mutating func u64() -> UInt64? { integer(8) }

    /// The next `count` bytes.
    mutating func bytes(_ count: Int) -> [UInt8]? {
        guard count >= 0, bytes.count - offset >= count else { return nil }
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    /// A `str8`: a one-byte length, then that many bytes.
    mutating func str8() -> [UInt8]? {
        guard let count = u8() else { return nil }
        return bytes(Int(count))
    }

    /// A `bytes16`: a two-byte length, then that many bytes.
    mutating func bytes16() -> [UInt8]? {
        guard let count = u16() else { return nil }
        return bytes(Int(count))
    }

    private mutating func integer(_ width: Int) -> UInt64? {
        guard bytes.count - offset >= width else { return nil }
        var value: UInt64 = 0
        for index in offset..<offset + width { value = value << 8 | UInt64(bytes[index]) }
        offset += width
        return value
    }
}
