// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// `nats` section of an account JWT (nats-io/jwt v2 account_claims.go).

/// Account limits (`nats.limits`). The core limits default to -1 (unlimited) and are always written: nats-server
/// copies them as they are, so `conn: 0` would refuse every connection. The JetStream limits default to 0, which
/// leaves JetStream off for the account, and are written only when not 0 (as nats-io/jwt does): an account has
/// JetStream when `mem_storage` or `disk_storage` is not 0.
public struct NATSAccountLimits: Codable, Sendable, Hashable {
    /// Maximum subscriptions (`subs`).
    public var subscriptions: Int64
    /// Maximum data bytes (`data`).
    public var data: Int64
    /// Maximum message payload (`payload`).
    public var payload: Int64
    /// Maximum imports (`imports`).
    public var imports: Int64
    /// Maximum exports (`exports`).
    public var exports: Int64
    /// Whether exports may contain wildcards (`wildcards`).
    public var wildcardExports: Bool
    /// Maximum client connections (`conn`).
    public var connections: Int64
    /// Maximum leaf node connections (`leaf`).
    public var leafNodeConnections: Int64
    /// JetStream memory storage in bytes (`mem_storage`; -1 unlimited, 0 none).
    public var jetStreamMemoryStorage: Int64 = 0
    /// JetStream file storage in bytes (`disk_storage`; -1 unlimited, 0 none).
    public var jetStreamDiskStorage: Int64 = 0
    /// JetStream streams (`streams`; -1 unlimited).
    public var jetStreamStreams: Int64 = 0
    /// JetStream consumers (`consumer`; -1 unlimited).
    public var jetStreamConsumers: Int64 = 0
    /// The largest `max_ack_pending` a consumer may have (`max_ack_pending`; -1 unlimited).
    public var jetStreamMaxAckPending: Int64 = 0
    /// Whether every stream must set `max_bytes` (`max_bytes_required`).
    public var jetStreamMaxBytesRequired: Bool = false

    /// Whether these limits give the account JetStream.
    public var hasJetStream: Bool { jetStreamMemoryStorage != 0 || jetStreamDiskStorage != 0 }

    /// Creates limits; every count defaults to unlimited.
    public init(
        subscriptions: Int64 = -1,
        data: Int64 = -1,
        payload: Int64 = -1,
        imports: Int64 = -1,
        exports: Int64 = -1,
        wildcardExports: Bool = true,
        connections: Int64 = -1,
        leafNodeConnections: Int64 = -1
    ) {
        self.subscriptions = subscriptions
        self.data = data
        self.payload = payload
        self.imports = imports
        self.exports = exports
        self.wildcardExports = wildcardExports
        self.connections = connections
        self.leafNodeConnections = leafNodeConnections
    }

    private enum CodingKeys: String, CodingKey {
        case subscriptions = "subs"
        case data, payload, imports, exports
        case wildcardExports = "wildcards"
        case connections = "conn"
        case leafNodeConnections = "leaf"
        case jetStreamMemoryStorage = "mem_storage"
        case jetStreamDiskStorage = "disk_storage"
        case jetStreamStreams = "streams"
        case jetStreamConsumers = "consumer"
        case jetStreamMaxAckPending = "max_ack_pending"
        case jetStreamMaxBytesRequired = "max_bytes_required"
    }

    /// Decodes limits; missing numbers are 0 and a missing `wildcards` is false, as in nats-server.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        subscriptions = try container.decodeIfPresent(Int64.self, forKey: .subscriptions) ?? 0
        data = try container.decodeIfPresent(Int64.self, forKey: .data) ?? 0
        payload = try container.decodeIfPresent(Int64.self, forKey: .payload) ?? 0
        imports = try container.decodeIfPresent(Int64.self, forKey: .imports) ?? 0
        exports = try container.decodeIfPresent(Int64.self, forKey: .exports) ?? 0
        wildcardExports = try container.decodeIfPresent(Bool.self, forKey: .wildcardExports) ?? false
        connections = try container.decodeIfPresent(Int64.self, forKey: .connections) ?? 0
        leafNodeConnections = try container.decodeIfPresent(Int64.self, forKey: .leafNodeConnections) ?? 0
        jetStreamMemoryStorage = try container.decodeIfPresent(Int64.self, forKey: .jetStreamMemoryStorage) ?? 0
        jetStreamDiskStorage = try container.decodeIfPresent(Int64.self, forKey: .jetStreamDiskStorage) ?? 0
        jetStreamStreams = try container.decodeIfPresent(Int64.self, forKey: .jetStreamStreams) ?? 0
        jetStreamConsumers = try container.decodeIfPresent(Int64.self, forKey: .jetStreamConsumers) ?? 0
        jetStreamMaxAckPending = try container.decodeIfPresent(Int64.self, forKey: .jetStreamMaxAckPending) ?? 0
        jetStreamMaxBytesRequired =
            try container.decodeIfPresent(Bool.self, forKey: .jetStreamMaxBytesRequired) ?? false
    }

    /// Encodes the core limits always and the JetStream limits when not 0.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(subscriptions, forKey: .subscriptions)
        try container.encode(data, forKey: .data)
        try container.encode(payload, forKey: .payload)
        try container.encode(imports, forKey: .imports)
        try container.encode(exports, forKey: .exports)
        try container.encode(wildcardExports, forKey: .wildcardExports)
        try container.encode(connections, forKey: .connections)
        try container.encode(leafNodeConnections, forKey: .leafNodeConnections)
        let jetStream: [(Int64, CodingKeys)] = [
            (jetStreamMemoryStorage, .jetStreamMemoryStorage), (jetStreamDiskStorage, .jetStreamDiskStorage),
            (jetStreamStreams, .jetStreamStreams), (jetStreamConsumers, .jetStreamConsumers),
            (jetStreamMaxAckPending, .jetStreamMaxAckPending),
        ]
        for (value, key) in jetStream where value != 0 { try container.encode(value, forKey: key) }
        if jetStreamMaxBytesRequired { try container.encode(true, forKey: .jetStreamMaxBytesRequired) }
    }
}

/// The `nats` section of an account JWT.
public struct NATSAccountClaims: NATSClaimsBody, Hashable {
    /// `"account"`.
    public static let claimType = "account"
    /// The operator key or one of its signing keys signs account JWTs.
    public static let issuerTypes: [NKeyType] = [.operator]
    /// The subject of an account JWT is an account key.
    public static let subjectType: NKeyType = .account

    /// Limits, explicit -1 by default.
    public var limits: NATSAccountLimits
    /// Account signing keys (plain `A…` keys) allowed to issue user JWTs.
    public var signingKeys: [String]
    /// Revoked users: user key (or `"*"`) → unix time; JWTs issued at or before it are refused.
    public var revocations: [String: Int64]
    /// Permissions for users whose JWT has none.
    public var defaultPermissions: NATSClaimPermissions?
    /// Free-form description.
    public var description: String?
    /// The claims version, 2.
    public var version: Int

    /// Creates account claims with unlimited limits.
    public init(
        limits: NATSAccountLimits = NATSAccountLimits(),
        signingKeys: [String] = [],
        revocations: [String: Int64] = [:],
        defaultPermissions: NATSClaimPermissions? = nil,
        description: String? = nil
    ) {
        self.limits = limits
        self.signingKeys = signingKeys
        self.revocations = revocations
        self.defaultPermissions = defaultPermissions
        self.description = description
        self.version = 2
    }

    /// Whether a user JWT for `userKey` issued at `issuedAt` is revoked by these claims.
    public func isRevoked(userKey: String, issuedAt: Int64) -> Bool {
        if let at = revocations[userKey], issuedAt <= at { return true }
        if let at = revocations["*"], issuedAt <= at { return true }
        return false
    }

    private enum CodingKeys: String, CodingKey {
        case limits
        case signingKeys = "signing_keys"
        case revocations
        case defaultPermissions = "default_permissions"
        case description, type, version
    }

    private struct ScopedSigningKey: Decodable {
        let key: String
    }

    private enum SigningKeyEntry: Decodable {
        case plain(String)
        case scoped(String)

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let plain = try? container.decode(String.self) {
                self = .plain(plain)
            } else {
                self = .scoped(try container.decode(ScopedSigningKey.self).key)
            }
        }

        var key: String {
            switch self {
            case .plain(let key), .scoped(let key): key
            }
        }
    }

    /// Decodes account claims. Scoped signing keys are read as their plain key (the scope is dropped).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        limits = try container.decodeIfPresent(NATSAccountLimits.self, forKey: .limits) ?? NATSAccountLimits()
        signingKeys = (try container.decodeIfPresent([SigningKeyEntry].self, forKey: .signingKeys) ?? []).map(\.key)
        revocations = try container.decodeIfPresent([String: Int64].self, forKey: .revocations) ?? [:]
        defaultPermissions = try container.decodeIfPresent(NATSClaimPermissions.self, forKey: .defaultPermissions)
        description = try container.decodeIfPresent(String.self, forKey: .description)
        version = try container.decodeIfPresent(Int.self, forKey: .version) ?? 1
        let type = try container.decodeIfPresent(String.self, forKey: .type)
        guard type == Self.claimType else {
            throw DecodingError.dataCorruptedError(forKey: .type, in: container, debugDescription: "not account claims")
        }
    }

    /// Encodes account claims; limits are always present.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(limits, forKey: .limits)
        if !signingKeys.isEmpty { try container.encode(signingKeys, forKey: .signingKeys) }
        if !revocations.isEmpty { try container.encode(revocations, forKey: .revocations) }
        try container.encodeIfPresent(defaultPermissions, forKey: .defaultPermissions)
        try container.encodeIfPresent(description, forKey: .description)
        try container.encode(Self.claimType, forKey: .type)
        try container.encode(version, forKey: .version)
    }
}
