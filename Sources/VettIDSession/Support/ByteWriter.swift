// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// Big-endian writing for the handshake and envelope layouts.

extension Array where Element == UInt8 {
    mutating func appendU16(_ value: UInt16) {
        append(UInt8(value >> 8))
        append(UInt8(value & 0xFF))
    }

    mutating func appendU32(_ value: UInt32) {
        for shift in stride(from: 24, through: 0, by: -8) { append(UInt8((value >> UInt32(shift)) & 0xFF)) }
    }

    mutating func appendU64(_ value: UInt64) {
        for shift in stride(from: 56, through: 0, by: -8) { append(UInt8((value >> UInt64(shift)) & 0xFF)) }
    }

    /// A `str8`; the caller has checked that `field` is at most 255 bytes.
    mutating func appendStr8(_ field: [UInt8]) {
        append(UInt8(field.count))
        append(contentsOf: field)
    }

    /// A `bytes16`; the caller has checked that `field` is at most 65535 bytes.
    mutating func appendBytes16(_ field: [UInt8]) {
        appendU16(UInt16(field.count))
        append(contentsOf: field)
    }
}
