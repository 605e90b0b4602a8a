// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// The X25519 public keys no key agreement may accept (RFC 7748 §6.1, RFC 9180 §7.1.4): the u-coordinates X25519
/// maps to zero for every scalar (small order on the curve or its twist), compared with bit 255 cleared as X25519
/// ignores it. swift-crypto's BoringSSL backend neither refuses them nor fails on the all-zero secret, so every
/// X25519 key the project accepts from the other side is checked here first. The list (libsodium's) is complete:
/// 0, 1, the two points of order 8, p − 1, and the non-canonical p and p + 1.
public enum X25519SmallOrder {
    /// Whether `key` (32 bytes) is one of ``points``, in time independent of which.
    public static func contains(_ key: [UInt8]) -> Bool {
        guard key.count == 32 else { return false }
        var matches: UInt8 = 0
        for point in points {
            var difference: UInt8 = 0
            for index in 0..<31 { difference |= key[index] ^ point[index] }
            difference |= (key[31] & 0x7F) ^ point[31]
            matches |= difference == 0 ? 1 : 0
        }
        return matches != 0
    }

    /// The small-order u-coordinates, little-endian, bit 255 clear.
    public static let points: [[UInt8]] = [
        [UInt8](repeating: 0, count: 32),
        [1] + [UInt8](repeating: 0, count: 31),
        [
            0xE0, 0xEB, 0x7A, 0x7C, 0x3B, 0x41, 0xB8, 0xAE, 0x16, 0x56, 0xE3, 0xFA, 0xF1, 0x9F, 0xC4, 0x6A,
            0xDA, 0x09, 0x8D, 0xEB, 0x9C, 0x32, 0xB1, 0xFD, 0x86, 0x62, 0x05, 0x16, 0x5F, 0x49, 0xB8, 0x00,
        ],
        [
            0x5F, 0x9C, 0x95, 0xBC, 0xA3, 0x50, 0x8C, 0x24, 0xB1, 0xD0, 0xB1, 0x55, 0x9C, 0x83, 0xEF, 0x5B,
            0x04, 0x44, 0x5C, 0xC4, 0x58, 0x1C, 0x8E, 0x86, 0xD8, 0x22, 0x4E, 0xDD, 0xD0, 0x9F, 0x11, 0x57,
        ],
        [0xEC] + [UInt8](repeating: 0xFF, count: 30) + [0x7F],
        [0xED] + [UInt8](repeating: 0xFF, count: 30) + [0x7F],
        [0xEE] + [UInt8](repeating: 0xFF, count: 30) + [0x7F],
    ]
}
