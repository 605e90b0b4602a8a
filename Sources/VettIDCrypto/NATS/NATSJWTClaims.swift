// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// The standard claims of a NATS JWT v2 (`ClaimsData` in nats-io/jwt v2/claims.go) plus the `nats` section.

/// A NATS JWT v2 claim set: the standard claims and a typed `nats` section.
///
/// Times are unix seconds. ``NATSJWT/encode(_:signedBy:now:)`` fills in ``issuer``, ``issuedAt`` (if 0)
/// and ``id``.
public struct NATSJWTClaims<Body: NATSClaimsBody>: Codable, Sendable, Equatable {
    /// Audience (`aud`).
    public var audience: String?
    /// Expiry (`exp`), unix seconds; `nil` never expires.
    public var expires: Int64?
    /// JWT ID (`jti`): base32 of SHA-512/256 of the standard claims.
    public var id: String
    /// Issued-at (`iat`), unix seconds.
    public var issuedAt: Int64
    /// Issuer public NKey (`iss`).
    public var issuer: String
    /// Display name (`name`).
    public var name: String?
    /// Not-before (`nbf`), unix seconds.
    public var notBefore: Int64?
    /// Subject public NKey (`sub`).
    public var subject: String
    /// The kind-specific `nats` section.
    public var nats: Body

    /// Creates claims for `subject`. Issuer, issue time and ID are set when encoding.
    public init(
        subject: String,
        name: String? = nil,
        audience: String? = nil,
        expires: Int64? = nil,
        notBefore: Int64? = nil,
        issuedAt: Int64 = 0,
        nats: Body
    ) {
        self.audience = audience
        self.expires = expires
        self.id = ""
        self.issuedAt = issuedAt
        self.issuer = ""
        self.name = name
        self.notBefore = notBefore
        self.subject = subject
        self.nats = nats
    }

    /// Whether the claims are expired at `now` (unix seconds).
    public func isExpired(at now: Int64) -> Bool {
        guard let expires else { return false }
        return now >= expires
    }

    /// Whether the claims are in their validity window at `now`: not expired and not before `nbf`.
    public func isValid(at now: Int64) -> Bool {
        if isExpired(at: now) { return false }
        if let notBefore, now < notBefore { return false }
        return true
    }

    private enum CodingKeys: String, CodingKey {
        case audience = "aud"
        case expires = "exp"
        case id = "jti"
        case issuedAt = "iat"
        case issuer = "iss"
        case name
        case notBefore = "nbf"
        case subject = "sub"
        case nats
    }

    /// Decodes claims; missing standard claims are empty.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        audience = try container.decodeIfPresent(String.self, forKey: .audience)
        expires = try container.decodeIfPresent(Int64.self, forKey: .expires)
        id = try container.decodeIfPresent(String.self, forKey: .id) ?? ""
        issuedAt = try container.decodeIfPresent(Int64.self, forKey: .issuedAt) ?? 0
        issuer = try container.decodeIfPresent(String.self, forKey: .issuer) ?? ""
        name = try container.decodeIfPresent(String.self, forKey: .name)
        notBefore = try container.decodeIfPresent(Int64.self, forKey: .notBefore)
        subject = try container.decodeIfPresent(String.self, forKey: .subject) ?? ""
        nats = try container.decode(Body.self, forKey: .nats)
    }

    /// Encodes claims, omitting empty standard claims as nats-io/jwt does.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try encodeStandard(into: &container)
        if !id.isEmpty { try container.encode(id, forKey: .id) }
        try container.encode(nats, forKey: .nats)
    }

    private func encodeStandard(into container: inout KeyedEncodingContainer<CodingKeys>) throws {
        if let audience, !audience.isEmpty { try container.encode(audience, forKey: .audience) }
        if let expires, expires != 0 { try container.encode(expires, forKey: .expires) }
        if issuedAt != 0 { try container.encode(issuedAt, forKey: .issuedAt) }
        if !issuer.isEmpty { try container.encode(issuer, forKey: .issuer) }
        if let name, !name.isEmpty { try container.encode(name, forKey: .name) }
        if let notBefore, notBefore != 0 { try container.encode(notBefore, forKey: .notBefore) }
        if !subject.isEmpty { try container.encode(subject, forKey: .subject) }
    }

    /// The standard claims alone, without `jti` and `nats`: the input of the `jti` hash.
    struct HashInput: Encodable {
        let claims: NATSJWTClaims<Body>

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try claims.encodeStandard(into: &container)
        }
    }
}

/// Claims of a user JWT.
public typealias NATSUserJWTClaims = NATSJWTClaims<NATSUserClaims>
/// Claims of an account JWT.
public typealias NATSAccountJWTClaims = NATSJWTClaims<NATSAccountClaims>
/// Claims of an operator JWT.
public typealias NATSOperatorJWTClaims = NATSJWTClaims<NATSOperatorClaims>
