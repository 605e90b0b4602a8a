// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// Byte helpers for the fuzz targets.

/// Parses lower- or upper-case hex; traps on anything else (only used on constants).
public func hexBytes(_ text: String) -> [UInt8] {
    let digits = Array(text.utf8).filter { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\n") }
    precondition(digits.count % 2 == 0, "odd hex length")
    func value(_ digit: UInt8) -> UInt8 {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return digit - UInt8(ascii: "A") + 10
        default: preconditionFailure("not a hex digit")
        }
    }
    return stride(from: 0, to: digits.count, by: 2).map { value(digits[$0]) << 4 | value(digits[$0 + 1]) }
}

/// Lower-case hex.
public func hexString(_ bytes: some Sequence<UInt8>) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var output: [UInt8] = []
    for byte in bytes {
        output.append(digits[Int(byte >> 4)])
        output.append(digits[Int(byte & 0x0F)])
    }
    return String(decoding: output, as: UTF8.self)
}

/// The big-endian unsigned value of up to eight bytes.
public func bigEndian<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> UInt64 {
    bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
}

/// A DER `ECDSA-Sig-Value` (`SEQUENCE { INTEGER r, INTEGER s }`) from a 64-byte raw `r || s` signature.
public func derECDSASignature(raw: [UInt8]) -> [UInt8] {
    precondition(raw.count == 64, "a P-256 raw signature is 64 bytes")
    func integer(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var content = Array(bytes.drop(while: { $0 == 0 }))
        if content.isEmpty { content = [0] }
        if content[0] & 0x80 != 0 { content.insert(0, at: 0) }
        return [0x02, UInt8(content.count)] + content
    }
    let body = integer(raw[0..<32]) + integer(raw[32..<64])
    return [0x30, UInt8(body.count)] + body
}
