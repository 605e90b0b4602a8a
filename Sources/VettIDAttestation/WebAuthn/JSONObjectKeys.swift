// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation

/// The member names of a JSON object's top level, as written (escapes decoded), in order; `nil` when the text is
/// not one object or a string in it holds a raw control character. Used to refuse client data that names a member twice: JSON parsers disagree on which duplicate
/// wins (Foundation's `JSONDecoder` and `JSONSerialization` do), so a relying party and an auditor could read
/// different origins from the same signed bytes.
enum JSONObjectKeys {
    static func of(_ bytes: [UInt8]) -> [String]? {
        var index = 0
        func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }
        /// Skips a string starting at its opening quote; the index after its closing quote. A raw control
        /// character makes it invalid (RFC 8259 §7), which not every parser enforces.
        func skipString() -> Bool {
            guard index < bytes.count, bytes[index] == 0x22 else { return false }
            index += 1
            while index < bytes.count {
                switch bytes[index] {
                case 0x5C: index += 2
                case 0x22:
                    index += 1
                    return true
                case 0x00..<0x20: return false
                default: index += 1
                }
            }
            return false
        }
        /// Skips one value up to the `,` or `}` that ends it at this level.
        func skipValue() -> Bool {
            var depth = 0
            while index < bytes.count {
                switch bytes[index] {
                case 0x22: guard skipString() else { return false }
                case 0x7B, 0x5B:
                    depth += 1
                    index += 1
                case 0x7D, 0x5D:
                    if depth == 0 { return true }
                    depth -= 1
                    index += 1
                case 0x2C where depth == 0: return true
                default: index += 1
                }
            }
            return false
        }
        skipSpace()
        guard index < bytes.count, bytes[index] == 0x7B else { return nil }
        index += 1
        var keys: [String] = []
        skipSpace()
        if index < bytes.count, bytes[index] == 0x7D { return keys }
        while true {
            skipSpace()
            let start = index
            guard skipString(),
                let key = try? JSONSerialization.jsonObject(
                    with: Data(bytes[start..<index]), options: .fragmentsAllowed) as? String
            else { return nil }
            keys.append(key)
            skipSpace()
            guard index < bytes.count, bytes[index] == 0x3A else { return nil }
            index += 1
            guard skipValue(), index < bytes.count else { return nil }
            if bytes[index] == 0x7D { return keys }
            index += 1  // the comma
        }
    }
}
