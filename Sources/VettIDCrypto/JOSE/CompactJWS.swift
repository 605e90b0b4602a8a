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
        let parts = compact.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw JOSEError(.malformed, "a compact JWS has exactly three parts") }
        guard let headerBytes = Base64URL.decode(String(decoding: parts[0], as: UTF8.self)),
            let payloadBytes = Base64URL.decode(String(decoding: parts[1], as: UTF8.self)),
            let signature = Base64URL.decode(String(decoding: parts[2], as: UTF8.self))
        else { throw JOSEError(.malformed, "a JWS part is not unpadded base64url") }
        guard let header = JSONValue.parse(headerBytes), header.objectMembers != nil else {
            throw JOSEError(.malformed, "the JWS header is not a JSON object without duplicate members")
        }
        guard let payload = JSONValue.parse(payloadBytes), payload.objectMembers != nil else {
            throw JOSEError(.malformed, "the JWS payload is not a JSON object without duplicate members")
        }
        self.header = header
        self.payload = payload
        self.signature = signature
        self.signingInput = Array(parts[0]) + [UInt8(ascii: ".")] + Array(parts[1])
    }

    /// The signing input for a header and payload, serialized exactly as given.
    public static func signingInput(header: JSONValue, payload: JSONValue) -> String {
        Base64URL.encode(header.serialized()) + "." + Base64URL.encode(payload.serialized())
    }
}
