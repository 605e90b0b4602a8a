// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// CRC-16/XMODEM, the checksum NKeys append to every encoded key.

/// CRC-16/XMODEM (CCITT polynomial `0x1021`, initial value 0, no reflection, no final XOR).
///
/// The check value for the ASCII bytes of `"123456789"` is `0x31C3`.
public enum CRC16 {
    private static let table: [UInt16] = (0..<256).map { index in
        var crc = UInt16(index) << 8
        for _ in 0..<8 {
            crc = (crc & 0x8000) != 0 ? (crc << 1) ^ 0x1021 : crc << 1
        }
        return crc
    }

    /// Computes the XMODEM checksum of `bytes`.
    public static func xmodem<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt16 {
        var crc: UInt16 = 0
        for byte in bytes {
            crc = (crc << 8) ^ table[Int(UInt8(truncatingIfNeeded: crc >> 8) ^ byte)]
        }
        return crc
    }
}
