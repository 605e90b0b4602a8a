// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// Publish/subscribe permissions inside user claims and account default permissions (jwt v2 types.go).

/// An allow and a deny list of subjects.
public struct NATSPermission: Codable, Sendable, Hashable {
    /// Subjects allowed (wildcards permitted). Empty means "no explicit allow list".
    public var allow: [String]
    /// Subjects denied; deny wins over allow.
    public var deny: [String]

    /// Creates a permission.
    public init(allow: [String] = [], deny: [String] = []) {
        self.allow = allow
        self.deny = deny
    }

    private enum CodingKeys: String, CodingKey { case allow, deny }

    /// Decodes a permission; missing lists are empty.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        allow = try container.decodeIfPresent([String].self, forKey: .allow) ?? []
        deny = try container.decodeIfPresent([String].self, forKey: .deny) ?? []
    }

    /// Encodes a permission, omitting empty lists as nats-io/jwt does.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if !allow.isEmpty { try container.encode(allow, forKey: .allow) }
        if !deny.isEmpty { try container.encode(deny, forKey: .deny) }
    }
}

/// Limits on replies a user may send to requests it received (`resp`).
public struct NATSResponsePermission: Codable, Sendable, Hashable {
    /// Maximum replies per request (`max`); -1 for unlimited.
    public var maxMessages: Int
    /// How long the reply permission lasts, in nanoseconds (`ttl`, a Go duration); 0 for unlimited.
    public var expiresNanoseconds: Int64

    /// Creates a response permission.
    public init(maxMessages: Int = 1, expiresNanoseconds: Int64 = 0) {
        self.maxMessages = maxMessages
        self.expiresNanoseconds = expiresNanoseconds
    }

    private enum CodingKeys: String, CodingKey {
        case maxMessages = "max"
        case expiresNanoseconds = "ttl"
    }
}

/// Publish, subscribe and response permissions.
public struct NATSClaimPermissions: Codable, Sendable, Hashable {
    /// Publish permissions (`pub`).
    public var publish: NATSPermission
    /// Subscribe permissions (`sub`).
    public var subscribe: NATSPermission
    /// Reply permissions (`resp`), if any.
    public var response: NATSResponsePermission?

    /// Creates permissions.
    public init(
        publish: NATSPermission = NATSPermission(),
        subscribe: NATSPermission = NATSPermission(),
        response: NATSResponsePermission? = nil
    ) {
        self.publish = publish
        self.subscribe = subscribe
        self.response = response
    }

    private enum CodingKeys: String, CodingKey {
        case publish = "pub"
        case subscribe = "sub"
        case response = "resp"
    }

    /// Decodes permissions; missing parts are empty.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        publish = try container.decodeIfPresent(NATSPermission.self, forKey: .publish) ?? NATSPermission()
        subscribe = try container.decodeIfPresent(NATSPermission.self, forKey: .subscribe) ?? NATSPermission()
        response = try container.decodeIfPresent(NATSResponsePermission.self, forKey: .response)
    }

    /// Encodes permissions; `pub` and `sub` are always present, `resp` only when set.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(publish, forKey: .publish)
        try container.encode(subscribe, forKey: .subscribe)
        try container.encodeIfPresent(response, forKey: .response)
    }
}
