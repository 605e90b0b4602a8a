// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCore

// Compact JWS serialization (RFC 7515 §7.1): parse and build.

/// A parsed compact JWS: `base64url(header).base64url(payload).base64url(signature)`.
///
/// Parsing only checks the shape (three parts, strict base64url, header and payload are JSON objects
/// without duplicate members); it does not verify the signature.
public struct CompactJWS: Sendable {
    /// The decoded protected header.
    public let header: JSONValue
    /// The decoded payload (claims).
    public let payload: JSONValue
    /// The raw signature bytes.
    public let signature: [UInt8]
    /// The ASCII bytes that were signed: `base64url(header) "." base64url(payload)`.
    public let signingInput: [UInt8]

    /// Parses a compact JWS whose header and payload are JSON objects.
    public init(parsing compact: String) throws(JOSEError) {
        var text = compact
        let parsed = text.withUTF8 { bytes in Result { () throws(JOSEError) in try Self.parse(bytes) } }
        self = try parsed.get()
    }

    private init(header: JSONValue, payload: JSONValue, signature: [UInt8], signingInput: [UInt8]) {
        self.header = header
        self.payload = payload
        self.signature = signature
        self.signingInput = signingInput
    }

    /// One pass over the bytes: the two dots, then each part decoded in place (no intermediate strings).
    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(JOSEError) -> CompactJWS {
        var first = -1
        var second = -1
        for index in bytes.indices where bytes[index] == UInt8(ascii: ".") {
            guard second < 0 else { throw JOSEError(.malformed, "a compact JWS has exactly three parts") }
            if first < 0 { first = index } else { second = index }
        }
        guard second >= 0 else { throw JOSEError(.malformed, "a compact JWS has exactly three parts") }
        let part = { (range: Range<Int>) in UnsafeBufferPointer(rebasing: bytes[range]) }
        guard let headerBytes = Base64URL.decode(bytes: part(0..<first)),
            let payloadBytes = Base64URL.decode(bytes: part(first + 1..<second)),
            let signature = Base64URL.decode(bytes: part(second + 1..<bytes.count))
        else { throw JOSEError(.malformed, "a JWS part is not unpadded base64url") }
        guard let header = JSONValue.parse(headerBytes), header.objectMembers != nil else {
            throw JOSEError(.malformed, "the JWS header is not a JSON object without duplicate members")
        }
        guard let payload = JSONValue.parse(payloadBytes), payload.objectMembers != nil else {
            throw JOSEError(.malformed, "the JWS payload is not a JSON object without duplicate members")
        }
        return CompactJWS(
            header: header, payload: payload, signature: signature, signingInput: Array(part(0..<second)))
    }

    /// The signing input for a header and payload, serialized exactly as given.
    public static func signingInput(header: JSONValue, payload: JSONValue) -> String {
        Base64URL.encode(header.serialized()) + "." + Base64URL.encode(payload.serialized())
    }
}
