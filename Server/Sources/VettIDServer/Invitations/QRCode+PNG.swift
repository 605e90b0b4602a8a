// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

extension QRCode {
    /// The symbol as a greyscale PNG, `scale` pixels per module, with a quiet zone of `margin` modules.
    ///
    /// A complete, dependency-free PNG: IHDR, one IDAT holding a zlib stream of stored (uncompressed) deflate
    /// blocks, IEND; CRC-32 per chunk and Adler-32 over the image data.
    public func png(scale: Int = 8, margin: Int = 4) -> [UInt8] {
        let side = (width + 2 * margin) * scale
        var raw: [UInt8] = []
        raw.reserveCapacity(side * (side + 1))
        for y in 0..<side {
            raw.append(0)  // filter type None
            let row = y / scale - margin
            for x in 0..<side {
                raw.append(isDark(row: row, column: x / scale - margin) ? 0x00 : 0xFF)
            }
        }
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header: [UInt8] = []
        header.appendBigEndian(UInt32(side))
        header.appendBigEndian(UInt32(side))
        header += [8, 0, 0, 0, 0]  // 8-bit greyscale, deflate, adaptive filtering, no interlace
        png.appendChunk("IHDR", header)
        png.appendChunk("IDAT", PNGEncoding.zlibStored(raw))
        png.appendChunk("IEND", [])
        return png
    }
}

enum PNGEncoding {
    /// A zlib stream (RFC 1950) of stored deflate blocks (RFC 1951 §3.2.4).
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let length = min(65_535, data.count - offset)
            let isLast = offset + length == data.count
            out.append(isLast ? 1 : 0)
            out.append(UInt8(length & 0xFF))
            out.append(UInt8(length >> 8))
            out.append(UInt8(~length & 0xFF))
            out.append(UInt8((~length >> 8) & 0xFF))
            out += data[offset..<(offset + length)]
            offset += length
        } while offset < data.count
        out.appendBigEndian(adler32(data))
        return out
    }

    static func adler32(_ data: [UInt8]) -> UInt32 {
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return b << 16 | a
    }

    static let crcTable: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    static func crc32<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }
}

extension Array where Element == UInt8 {
    mutating func appendBigEndian(_ value: UInt32) {
        append(contentsOf: [
            UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF),
        ])
    }

    mutating func appendChunk(_ type: String, _ data: [UInt8]) {
        appendBigEndian(UInt32(data.count))
        let typed = Array(type.utf8) + data
        append(contentsOf: typed)
        appendBigEndian(PNGEncoding.crc32(typed))
    }
}
