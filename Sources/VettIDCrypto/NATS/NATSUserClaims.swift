// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// `nats` section of a user JWT (nats-io/jwt v2 user_claims.go).

/// The `nats` section of a user JWT.
///
/// Limits default to -1 (unlimited) and are always written: nats-server takes a missing `subs` or
/// `payload` as zero, which would forbid every subscription and every non-empty message.
public struct NATSUserClaims: NATSClaimsBody, Hashable {
    /// `"user"`.
    public static let claimType = "user"
    /// An account key or one of its signing keys signs user JWTs.
    public static let issuerTypes: [NKeyType] = [.account]
    /// The subject of a user JWT is a user key.
    public static let subjectType: NKeyType = .user

    /// Publish/subscribe/response permissions.
    public var permissions: NATSClaimPermissions
    /// Maximum subscriptions (`subs`), -1 unlimited.
    public var maxSubscriptions: Int64
    /// Maximum data bytes (`data`), -1 unlimited.
    public var maxData: Int64
    /// Maximum message payload (`payload`), -1 unlimited.
    public var maxPayload: Int64
    /// Whether the JWT is a bearer token (no nonce signature needed).
    public var bearerToken: Bool
    /// Allowed connection types (`STANDARD`, `WEBSOCKET`, `LEAFNODE`, `MQTT`); empty means all.
    public var allowedConnectionTypes: [String]
    /// The account key, required when a signing key of that account issued the JWT.
    public var issuerAccount: String?
    /// Free-form tags.
    public var tags: [String]
    /// The claims version, 2.
    public var version: Int

    /// Creates user claims with explicit unlimited limits.
    public init(
        permissions: NATSClaimPermissions = NATSClaimPermissions(),
        maxSubscriptions: Int64 = -1,
        maxData: Int64 = -1,
        maxPayload: Int64 = -1,
        bearerToken: Bool = false,
        allowedConnectionTypes: [String] = [],
        issuerAccount: String? = nil,
        tags: [String] = []
    ) {
        self.permissions = permissions
        self.maxSubscriptions = maxSubscriptions
        self.maxData = maxData
        self.maxPayload = maxPayload
        self.bearerToken = bearerToken
        self.allowedConnectionTypes = allowedConnectionTypes
        self.issuerAccount = issuerAccount
        self.tags = tags
        self.version = 2
    }

    private enum CodingKeys: String, CodingKey {
        case pub, sub, resp, subs, data, payload
        case bearerToken = "bearer_token"
        case allowedConnectionTypes = "allowed_connection_types"
        case issuerAccount = "issuer_account"
        case tags, type, version
    }

    /// Decodes user claims. Missing limits decode as 0, which is how nats-server reads them.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        permissions = NATSClaimPermissions(
            publish: try container.decodeIfPresent(NATSPermission.self, forKey: .pub) ?? NATSPermission(),
            subscribe: try container.decodeIfPresent(NATSPermission.self, forKey: .sub) ?? NATSPermission(),
            response: try container.decodeIfPresent(NATSResponsePermission.self, forKey: .resp)
        )
        maxSubscriptions = try container.decodeIfPresent(Int64.self, forKey: .subs) ?? 0
        maxData = try container.decodeIfPresent(Int64.self, forKey: .data) ?? 0
        maxPayload = try container.decodeIfPresent(Int64.self, forKey: .payload) ?? 0
        bearerToken = try container.decodeIfPresent(Bool.self, forKey: .bearerToken) ?? false
        allowedConnectionTypes = try container.decodeIfPresent([String].self, forKey: .allowedConnectionTypes) ?? []
        issuerAccount = try container.decodeIfPresent(String.self, forKey: .issuerAccount)
        tags = try container.decodeIfPresent([String].self, forKey: .tags) ?? []
        version = try container.decodeIfPresent(Int.self, forKey: .version) ?? 1
        let type = try container.decodeIfPresent(String.self, forKey: .type)
        guard type == Self.claimType else {
            throw DecodingError.dataCorruptedError(forKey: .type, in: container, debugDescription: "not user claims")
        }
    }

    /// Encodes user claims with limits always present.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(permissions.publish, forKey: .pub)
        try container.encode(permissions.subscribe, forKey: .sub)
        try container.encodeIfPresent(permissions.response, forKey: .resp)
        try container.encode(maxSubscriptions, forKey: .subs)
        try container.encode(maxData, forKey: .data)
        try container.encode(maxPayload, forKey: .payload)
        if bearerToken { try container.encode(true, forKey: .bearerToken) }
        if !allowedConnectionTypes.isEmpty {
            try container.encode(allowedConnectionTypes, forKey: .allowedConnectionTypes)
        }
        try container.encodeIfPresent(issuerAccount, forKey: .issuerAccount)
        if !tags.isEmpty { try container.encode(tags, forKey: .tags) }
        try container.encode(Self.claimType, forKey: .type)
        try container.encode(version, forKey: .version)
    }
}
