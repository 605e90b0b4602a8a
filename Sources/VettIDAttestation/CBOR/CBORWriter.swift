// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// Canonical encoding of CBORValue, for the software attester.

extension CBORValue {
    /// The encoding with the shortest length arguments and map entries in stored order.
    package func encoded() -> [UInt8] {
        var output = [UInt8]()
        encode(into: &output)
        return output
    }

    private static func head(_ major: UInt8, _ argument: UInt64, into output: inout [UInt8]) {
        let type = major << 5
        switch argument {
        case 0..<24: output.append(type | UInt8(argument))
        case 24...0xFF: output += [type | 24, UInt8(argument)]
        case 0x100...0xFFFF: output += [type | 25, UInt8(argument >> 8), UInt8(argument & 0xFF)]
        case 0x10000...0xFFFF_FFFF:
            output.append(type | 26)
            output += (0..<4).map { UInt8(truncatingIfNeeded: argument >> (24 - 8 * $0)) }
        default:
            output.append(type | 27)
            output += (0..<8).map { UInt8(truncatingIfNeeded: argument >> (56 - 8 * $0)) }
        }
    }

    private func encode(into output: inout [UInt8]) {
        switch self {
        case .unsigned(let value): Self.head(0, value, into: &output)
        case .negative(let value): Self.head(1, value, into: &output)
        case .bytes(let value):
            Self.head(2, UInt64(value.count), into: &output)
            output += value
        case .text(let value):
            Self.head(3, UInt64(value.utf8.count), into: &output)
            output += Array(value.utf8)
        case .array(let items):
            Self.head(4, UInt64(items.count), into: &output)
            for item in items { item.encode(into: &output) }
        case .map(let entries):
            Self.head(5, UInt64(entries.count), into: &output)
            for entry in entries {
                entry.key.encode(into: &output)
                entry.value.encode(into: &output)
            }
        case .bool(let value): output.append(value ? 0xF5 : 0xF4)
        case .null: output.append(0xF6)
        }
    }
}
