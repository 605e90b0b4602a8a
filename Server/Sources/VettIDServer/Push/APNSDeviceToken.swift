// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto

/// Device-token checks and their log-safe name.
enum APNSDeviceToken {
    /// Whether `token` looks like an APNs device token: an even number of lower-case hex digits, 64 today (32 bytes),
    /// at most 200 (Apple warns the length may grow).
    static func isWellFormed(_ token: String) -> Bool {
        let utf8 = token.utf8
        guard utf8.count >= 64, utf8.count <= 200, utf8.count % 2 == 0 else { return false }
        return utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// The first 12 hex digits of SHA-256(`token`): enough to follow one device through the logs, useless to send
    /// it anything.
    static func logID(_ token: String) -> String {
        SHA256.hash(data: Array(token.utf8)).prefix(6).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }
}
