// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// Subject rules (nats-server sublist.go IsValidSubject; ADR-6).

/// Client-side checks of subjects and queue names before they reach the server.
public enum NATSSubjectValidator {
    /// A publish subject: non-empty, no whitespace. Wildcards are not rejected (the server only checks
    /// them in pedantic mode), as in nats.go.
    public static func isValidPublishSubject(_ subject: String) -> Bool {
        guard !subject.isEmpty else { return false }
        // Called on every publish: scan contiguous UTF-8 directly when the string has it.
        if let valid = subject.utf8.withContiguousStorageIfAvailable({ bytes in
            for byte in bytes where byte <= 0x20 && isWhitespace(byte) { return false }
            return true
        }) {
            return valid
        }
        return !subject.utf8.contains(where: isWhitespace)
    }

    /// A subscription subject: non-empty `.`-separated tokens, no empty token, no whitespace, `>` only as
    /// the last token, and `*`/`>` only as whole tokens.
    public static func isValidSubscribeSubject(_ subject: String) -> Bool {
        guard !subject.isEmpty else { return false }
        let tokens = subject.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        for (index, token) in tokens.enumerated() {
            if token.isEmpty { return false }
            if token.contains(where: isWhitespace) { return false }
            if token.count > 1, token.contains(where: { $0 == UInt8(ascii: ">") || $0 == UInt8(ascii: "*") }) {
                // nats-server accepts `a*b` as a literal token, but wildcard characters inside a token are
                // almost always a mistake; reject them as nats.go's badSubject does for `>`.
                return false
            }
            if token.first == UInt8(ascii: ">"), index != tokens.count - 1 { return false }
        }
        return true
    }

    /// A queue group name: a single non-empty token without whitespace.
    public static func isValidQueueName(_ queue: String) -> Bool {
        !queue.isEmpty && !queue.utf8.contains(where: isWhitespace)
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n")
            || byte == UInt8(ascii: "\r") || byte == 0x0C
    }
}
