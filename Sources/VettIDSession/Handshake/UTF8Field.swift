// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// The text fields of the handshake (`member_guid`, `vault_kid`): `str8` of valid UTF-8, 1 to 255 bytes.

enum UTF8Field {
    /// The text of `bytes` when they are 1 to 255 bytes of valid UTF-8.
    static func decode(_ bytes: [UInt8]) -> String? {
        guard (1...255).contains(bytes.count) else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        // Decoding replaces invalid sequences with U+FFFD, so the text re-encodes to other bytes.
        guard Array(text.utf8) == bytes else { return nil }
        return text
    }

    /// Whether `text` fits a `str8` field (1 to 255 bytes).
    static func isValid(_ text: String) -> Bool { (1...255).contains(text.utf8.count) }
}
