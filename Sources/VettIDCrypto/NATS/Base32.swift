// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// RFC 4648 §6 base32 with the standard alphabet and no padding, as NKeys use it.

/// Encoding and decoding of RFC 4648 base32 (alphabet `A–Z2–7`) without padding.
///
/// NKeys and the `jti` of NATS JWTs use this encoding. Decoding accepts only upper-case alphabet
/// characters, refuses padding and impossible lengths, and requires unused trailing bits to be zero,
/// so every byte string has exactly one accepted encoding.
public enum Base32 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)

    private static let decodeTable: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, character) in alphabet.enumerated() { table[Int(character)] = UInt8(index) }
        return table
    }()

    /// Encodes bytes as unpadded base32.
    public static func encode<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> String {
        var output = [UInt8]()
        output.reserveCapacity(bytes.underestimatedCount * 8 / 5 + 1)
        var accumulator: UInt32 = 0
        var bits = 0
        for byte in bytes {
            accumulator = (accumulator << 8) | UInt32(byte)
            bits += 8
            while bits >= 5 {
                bits -= 5
                output.append(alphabet[Int((accumulator >> UInt32(bits)) & 0x1F)])
            }
            accumulator &= (1 << UInt32(bits)) - 1
        }
        if bits > 0 {
            output.append(alphabet[Int((accumulator << UInt32(5 - bits)) & 0x1F)])
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Decodes unpadded base32; returns `nil` for characters outside the alphabet (including `=`),
    /// a length no encoder produces, or non-zero trailing bits.
    public static func decode<Text: StringProtocol>(_ text: Text) -> [UInt8]? {
        let input = text.utf8
        // Valid unpadded lengths modulo 8 are 0, 2, 4, 5 and 7.
        switch input.count % 8 {
        case 1, 3, 6: return nil
        default: break
        }
        var output = [UInt8]()
        output.reserveCapacity(input.count * 5 / 8)
        var accumulator: UInt32 = 0
        var bits = 0
        for character in input {
            let value = decodeTable[Int(character)]
            if value == 0xFF { return nil }
            accumulator = (accumulator << 5) | UInt32(value)
            bits += 5
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                accumulator &= (1 << UInt32(bits)) - 1
            }
        }
        if bits > 0, accumulator != 0 { return nil }
        return output
    }
}
