// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// `nats` section of an operator JWT (nats-io/jwt v2 operator_claims.go).

/// The `nats` section of a (self-signed) operator JWT.
public struct NATSOperatorClaims: NATSClaimsBody, Hashable {
    /// `"operator"`.
    public static let claimType = "operator"
    /// Operators sign their own JWT (or an operator signing key does).
    public static let issuerTypes: [NKeyType] = [.operator]
    /// The subject of an operator JWT is an operator key.
    public static let subjectType: NKeyType = .operator

    /// Operator signing keys allowed to issue account JWTs.
    public var signingKeys: [String]
    /// The system account's key.
    public var systemAccount: String?
    /// URL of an account server, if any.
    public var accountServerURL: String?
    /// NATS URLs of the operator's service.
    public var operatorServiceURLs: [String]
    /// Minimum server version the operator requires.
    public var assertServerVersion: String?
    /// Whether only signing keys (not the operator key itself) may sign accounts.
    public var strictSigningKeyUsage: Bool
    /// The claims version, 2.
    public var version: Int

    /// Creates operator claims.
    public init(
        signingKeys: [String] = [],
        systemAccount: String? = nil,
        accountServerURL: String? = nil,
        operatorServiceURLs: [String] = [],
        assertServerVersion: String? = nil,
        strictSigningKeyUsage: Bool = false
    ) {
        self.signingKeys = signingKeys
        self.systemAccount = systemAccount
        self.accountServerURL = accountServerURL
        self.operatorServiceURLs = operatorServiceURLs
        self.assertServerVersion = assertServerVersion
        self.strictSigningKeyUsage = strictSigningKeyUsage
        self.version = 2
    }

    private enum CodingKeys: String, CodingKey {
        case signingKeys = "signing_keys"
        case accountServerURL = "account_server_url"
        case operatorServiceURLs = "operator_service_urls"
        case systemAccount = "system_account"
        case assertServerVersion = "assert_server_version"
        case strictSigningKeyUsage = "strict_signing_key_usage"
        case type, version
    }

    /// Decodes operator claims.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        signingKeys = try container.decodeIfPresent([String].self, forKey: .signingKeys) ?? []
        systemAccount = try container.decodeIfPresent(String.self, forKey: .systemAccount)
        accountServerURL = try container.decodeIfPresent(String.self, forKey: .accountServerURL)
        operatorServiceURLs = try container.decodeIfPresent([String].self, forKey: .operatorServiceURLs) ?? []
        assertServerVersion = try container.decodeIfPresent(String.self, forKey: .assertServerVersion)
        strictSigningKeyUsage = try container.decodeIfPresent(Bool.self, forKey: .strictSigningKeyUsage) ?? false
        version = try container.decodeIfPresent(Int.self, forKey: .version) ?? 1
        let type = try container.decodeIfPresent(String.self, forKey: .type)
        guard type == Self.claimType else {
            throw DecodingError.dataCorruptedError(
                forKey: .type, in: container, debugDescription: "not operator claims")
        }
    }

    /// Encodes operator claims, omitting empty fields.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if !signingKeys.isEmpty { try container.encode(signingKeys, forKey: .signingKeys) }
        try container.encodeIfPresent(accountServerURL, forKey: .accountServerURL)
        if !operatorServiceURLs.isEmpty { try container.encode(operatorServiceURLs, forKey: .operatorServiceURLs) }
        try container.encodeIfPresent(systemAccount, forKey: .systemAccount)
        try container.encodeIfPresent(assertServerVersion, forKey: .assertServerVersion)
        if strictSigningKeyUsage { try container.encode(true, forKey: .strictSigningKeyUsage) }
        try container.encode(Self.claimType, forKey: .type)
        try container.encode(version, forKey: .version)
    }
}
