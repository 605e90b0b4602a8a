// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// One `Authorization` field value split into its scheme and credentials (RFC 9110 §11.4), the way every
/// authenticated route reads it.
///
/// The scheme is matched case-insensitively; the credentials are the rest of the value without the spaces and
/// tabs around it. The work is one pass over the bytes, because the Gate proxy parses a token of several hundred
/// bytes on every request and Foundation's `trimmingCharacters(in:)` goes through UTF-16 and `NSString`.
struct AuthorizationHeader: Equatable, Sendable {
    /// The schemes the server accepts.
    enum Scheme: Equatable, Sendable {
        case bearer
        case dpop
    }

    /// The scheme, or `nil` for one the server does not accept.
    let scheme: Scheme?
    /// The credentials after the scheme, trimmed of spaces and tabs (may be empty).
    let credentials: String

    /// Splits `value` at its first space; `nil` when it is not a scheme, a space and non-blank credentials.
    init?(_ value: String) {
        let bytes = value.utf8
        guard let space = bytes.firstIndex(of: UInt8(ascii: " ")) else { return nil }
        scheme = Self.scheme(bytes[bytes.startIndex..<space])
        var start = bytes.index(after: space)
        var end = bytes.endIndex
        while start < end, Self.isBlank(bytes[start]) { start = bytes.index(after: start) }
        while end > start, Self.isBlank(bytes[bytes.index(before: end)]) { end = bytes.index(before: end) }
        guard start < end else { return nil }
        credentials = String(value[start..<end])
    }

    private static func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }

    private static func scheme(_ name: Substring.UTF8View) -> Scheme? {
        if matches(name, "dpop") { return .dpop }
        if matches(name, "bearer") { return .bearer }
        return nil
    }

    /// ASCII case-insensitive equality with a lowercase literal.
    private static func matches(_ name: Substring.UTF8View, _ lowercase: StaticString) -> Bool {
        guard name.count == lowercase.utf8CodeUnitCount else { return false }
        return lowercase.withUTF8Buffer { expected in
            zip(name, expected).allSatisfy { byte, want in
                (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 == want : byte == want
            }
        }
    }
}
