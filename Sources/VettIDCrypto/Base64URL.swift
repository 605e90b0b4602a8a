// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// Base64url (RFC 4648 §5) without padding, as JOSE (RFC 7515 §2) and NATS JWTs use it.

/// Encoding and decoding of base64url without padding.
///
/// Decoding is strict: it accepts only the URL-safe alphabet, refuses padding and refuses a final
/// quantum whose unused bits are not zero, so every byte string has exactly one accepted encoding.
public enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    private static let decodeTable: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, character) in alphabet.enumerated() { table[Int(character)] = UInt8(index) }
        return table
    }()

    /// Encodes bytes as base64url without padding.
    public static func encode<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> String {
        var output = [UInt8]()
        append(bytes, to: &output)
        return String(decoding: output, as: UTF8.self)
    }

    /// Appends the base64url encoding (no padding) of `bytes` to `output`.
    public static func append<Bytes: Sequence<UInt8>>(_ bytes: Bytes, to output: inout [UInt8]) {
        let input = Array(bytes)
        output.reserveCapacity(output.count + (input.count * 4 + 2) / 3)
        var index = 0
        while index + 3 <= input.count {
            let chunk = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
            output.append(alphabet[Int(chunk >> 18 & 0x3F)])
            output.append(alphabet[Int(chunk >> 12 & 0x3F)])
            output.append(alphabet[Int(chunk >> 6 & 0x3F)])
            output.append(alphabet[Int(chunk & 0x3F)])
            index += 3
        }
        switch input.count - index {
        case 1:
            let chunk = UInt32(input[index]) << 16
            output.append(alphabet[Int(chunk >> 18 & 0x3F)])
            output.append(alphabet[Int(chunk >> 12 & 0x3F)])
        case 2:
            let chunk = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8
            output.append(alphabet[Int(chunk >> 18 & 0x3F)])
            output.append(alphabet[Int(chunk >> 12 & 0x3F)])
            output.append(alphabet[Int(chunk >> 6 & 0x3F)])
        default:
            break
        }
    }

    /// Decodes unpadded base64url text; returns `nil` for any character outside the alphabet,
    /// padding, an impossible length, or non-zero trailing bits.
    public static func decode<Text: StringProtocol>(_ text: Text) -> [UInt8]? {
        if let decoded = text.utf8.withContiguousStorageIfAvailable({ decode(bytes: $0) }) { return decoded }
        return Array(text.utf8).withUnsafeBufferPointer { decode(bytes: $0) }
    }

    /// Decodes unpadded base64url from UTF-8 bytes, with the same rules as ``decode(_:)``.
    public static func decode(bytes input: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        let remainder = input.count % 4
        if remainder == 1 { return nil }
        let outputCount = input.count / 4 * 3 + (remainder == 0 ? 0 : remainder - 1)
        return decodeTable.withUnsafeBufferPointer { table -> [UInt8]? in
            var valid = true
            let output = [UInt8](unsafeUninitializedCapacity: outputCount) { buffer, initialized in
                var read = 0
                var written = 0
                // Four characters carry three bytes; an invalid character (0xFF in the table) sets the 0x80 bit.
                while read + 4 <= input.count {
                    let a = table[Int(input[read])], b = table[Int(input[read + 1])]
                    let c = table[Int(input[read + 2])], d = table[Int(input[read + 3])]
                    if (a | b | c | d) & 0x80 != 0 { valid = false; break }
                    let chunk = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
                    buffer[written] = UInt8(truncatingIfNeeded: chunk >> 16)
                    buffer[written + 1] = UInt8(truncatingIfNeeded: chunk >> 8)
                    buffer[written + 2] = UInt8(truncatingIfNeeded: chunk)
                    read += 4
                    written += 3
                }
                if valid, remainder > 0 {
                    let a = table[Int(input[read])], b = table[Int(input[read + 1])]
                    let c = remainder == 3 ? table[Int(input[read + 2])] : 0
                    if (a | b | c) & 0x80 != 0 {
                        valid = false
                    } else if remainder == 2 {
                        // Leftover bits must be zero, or two encodings would decode to the same bytes.
                        if b & 0x0F != 0 { valid = false } else { buffer[written] = a << 2 | b >> 4; written += 1 }
                    } else {
                        if c & 0x03 != 0 {
                            valid = false
                        } else {
                            buffer[written] = a << 2 | b >> 4
                            buffer[written + 1] = b << 4 | c >> 2
                            written += 2
                        }
                    }
                }
                initialized = valid ? written : 0
            }
            return valid ? output : nil
        }
    }
}
