// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// The check the Gate proxy makes on each segment of a forwarded path, on its bytes.
///
/// A segment is unsafe when, percent-decoded, it is `.` or `..` (it would climb out of the upstream's base path)
/// or holds a `/` or `\` (an encoded separator some upstreams decode before routing). Bytes are read as they
/// are: `%2e`, `%2E`, `%2f`, `%2F`, `%5c`, `%5C` are the encodings that matter; any other `%` sequence, valid or
/// not, decodes to something that is neither a dot nor a separator.
enum ProxiedPathSegment {
    /// Whether `segment` (without its leading `/`) may not be forwarded.
    static func isUnsafe(_ segment: Substring.UTF8View) -> Bool {
        var dots = 0
        var onlyDots = true
        var index = segment.startIndex
        while index < segment.endIndex {
            let byte = segment[index]
            var decoded = byte
            if byte == UInt8(ascii: "%"), let escaped = escapedByte(segment, at: index) {
                decoded = escaped
                index = segment.index(index, offsetBy: 3)
            } else {
                index = segment.index(after: index)
            }
            switch decoded {
            case UInt8(ascii: "/"), UInt8(ascii: "\\"): return true
            case UInt8(ascii: "."): dots += 1
            default: onlyDots = false
            }
        }
        return onlyDots && (dots == 1 || dots == 2)
    }

    /// The byte `%XY` at `index` stands for, when it is a dot, a slash or a backslash.
    private static func escapedByte(_ segment: Substring.UTF8View, at index: String.Index) -> UInt8? {
        guard segment.distance(from: index, to: segment.endIndex) >= 3 else { return nil }
        let high = segment[segment.index(index, offsetBy: 1)]
        let low = segment[segment.index(index, offsetBy: 2)] | 0x20
        switch (high, low) {
        case (UInt8(ascii: "2"), UInt8(ascii: "e")): return UInt8(ascii: ".")
        case (UInt8(ascii: "2"), UInt8(ascii: "f")): return UInt8(ascii: "/")
        case (UInt8(ascii: "5"), UInt8(ascii: "c")): return UInt8(ascii: "\\")
        default: return nil
        }
    }
}
