// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// A P-256 public key as a JSON Web Key (RFC 7517/7518) with its RFC 7638 thumbprint.

public import Crypto
public import VettIDCore

/// A P-256 public key in JWK form: `{"kty":"EC","crv":"P-256","x":…,"y":…}`.
///
/// Parsing is strict: `kty` must be `EC`, `crv` must be `P-256`, `x` and `y` must be unpadded base64url
/// of exactly 32 bytes each forming a point on the curve, and any private member (`d`, `p`, `q`, `dp`,
/// `dq`, `qi`, `oth`, `k`) is refused. Other public members (`kid`, `use`, `alg`…) are ignored.
public struct P256PublicJWK: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The JWK members that carry private key material in any key type (RFC 7518 §6).
    public static let privateMemberNames: Set<String> = ["d", "p", "q", "dp", "dq", "qi", "oth", "k"]

    /// The x coordinate, unpadded base64url of 32 bytes.
    public let x: String
    /// The y coordinate, unpadded base64url of 32 bytes.
    public let y: String
    /// The key itself.
    public let publicKey: P256.Signing.PublicKey

    /// Wraps a public key.
    public init(publicKey: P256.Signing.PublicKey) {
        let raw = Array(publicKey.rawRepresentation)
        self.x = Base64URL.encode(raw[0..<32])
        self.y = Base64URL.encode(raw[32..<64])
        self.publicKey = publicKey
    }

    /// Builds a key from its coordinates; throws unless they decode to a point on P-256.
    public init(x: String, y: String) throws(JOSEError) {
        guard let xBytes = Base64URL.decode(x), let yBytes = Base64URL.decode(y), xBytes.count == 32, yBytes.count == 32
        else { throw JOSEError(.invalidPoint, "x and y must be base64url of 32 bytes each") }
        do {
            self.publicKey = try P256.Signing.PublicKey(x963Representation: [0x04] + xBytes + yBytes)
        } catch {
            throw JOSEError(.invalidPoint, "x and y are not a point on P-256")
        }
        self.x = x
        self.y = y
    }

    /// Parses a JWK from a JSON object, strictly (see the type's documentation).
    public init(json: JSONValue) throws(JOSEError) {
        guard let members = json.objectMembers else { throw JOSEError(.malformed, "a JWK must be a JSON object") }
        if members.contains(where: { Self.privateMemberNames.contains($0.0) }) {
            throw JOSEError(.privateKeyMember, "the JWK carries private key material")
        }
        guard let kty = json["kty"]?.stringValue else { throw JOSEError(.malformed, "kty is missing or not a string") }
        guard kty == "EC" else { throw JOSEError(.unsupportedKeyType, "kty must be EC") }
        guard let crv = json["crv"]?.stringValue else { throw JOSEError(.malformed, "crv is missing or not a string") }
        guard crv == "P-256" else { throw JOSEError(.unsupportedCurve, "crv must be P-256") }
        guard let x = json["x"]?.stringValue, let y = json["y"]?.stringValue else {
            throw JOSEError(.malformed, "x or y is missing or not a string")
        }
        try self.init(x: x, y: y)
    }

    /// The JWK as a JSON object, members in the order `kty`, `crv`, `x`, `y`.
    public var json: JSONValue {
        .object([("kty", .string("EC")), ("crv", .string("P-256")), ("x", .string(x)), ("y", .string(y))])
    }

    /// The exact bytes hashed by RFC 7638: `{"crv":"P-256","kty":"EC","x":"…","y":"…"}` (required members
    /// only, lexicographic order, no whitespace).
    public var thumbprintInput: [UInt8] {
        JSONValue.object([("crv", .string("P-256")), ("kty", .string("EC")), ("x", .string(x)), ("y", .string(y))])
            .serialized()
    }

    /// The RFC 7638 SHA-256 thumbprint, base64url without padding (the value of `cnf.jkt`).
    public var thumbprint: String {
        Base64URL.encode(SHA256.hash(data: thumbprintInput))
    }

    public var description: String { "P256PublicJWK(jkt: \(thumbprint))" }

    public static func == (lhs: P256PublicJWK, rhs: P256PublicJWK) -> Bool { lhs.x == rhs.x && lhs.y == rhs.y }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(x)
        hasher.combine(y)
    }

    private struct MemberKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { self.stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Decodes strictly, with the same rules as ``init(json:)``.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: MemberKey.self)
        if container.allKeys.contains(where: { Self.privateMemberNames.contains($0.stringValue) }) {
            throw JOSEError(.privateKeyMember, "the JWK carries private key material")
        }
        let kty = try container.decode(String.self, forKey: MemberKey("kty"))
        guard kty == "EC" else { throw JOSEError(.unsupportedKeyType, "kty must be EC") }
        let crv = try container.decode(String.self, forKey: MemberKey("crv"))
        guard crv == "P-256" else { throw JOSEError(.unsupportedCurve, "crv must be P-256") }
        try self.init(
            x: container.decode(String.self, forKey: MemberKey("x")),
            y: container.decode(String.self, forKey: MemberKey("y"))
        )
    }

    /// Encodes the four public members.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: MemberKey.self)
        try container.encode("P-256", forKey: MemberKey("crv"))
        try container.encode("EC", forKey: MemberKey("kty"))
        try container.encode(x, forKey: MemberKey("x"))
        try container.encode(y, forKey: MemberKey("y"))
    }
}
