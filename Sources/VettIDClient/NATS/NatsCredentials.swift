// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation
public import VettIDMessaging

/// A NATS user token issued by the backend: the user JWT, its NKey seed, the endpoint and the permissions
/// nats-server enforces. Codable so it can be kept in a ``SecureStore`` (``NatsCredentialStore``).
///
/// The seed and the `.creds` text are secrets (the JWT is a bearer-less credential but is treated the same):
/// ``description``, ``debugDescription`` and the mirror never show them.
public struct NatsCredentials: Sendable, Hashable, Codable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// One hour: the default ``shouldRefresh(at:refreshWindow:)`` window.
    public static let defaultRefreshWindow: TimeInterval = 60 * 60

    /// The server's token id (for revocation).
    public let tokenID: String
    /// The user JWT signed by the application account. Secret.
    public let jwt: String
    /// The user's NKey seed (`SU…`). Secret.
    public let seed: String
    /// The standard `.creds` text (JWT and seed blocks). Secret.
    public let creds: String
    /// The nats-server URL (`tls://host:port` or `nats://host:port`).
    public let endpoint: String
    /// When nats-server stops accepting the token (and disconnects its connections).
    public let expiresAt: Date
    /// What the token may publish and subscribe to.
    public let permissions: NatsPermissionSet
    /// The member's namespaces the token is for.
    public let namespace: VaultNamespace
    /// Whom the token is for.
    public let clientType: NatsClientType
    /// The device's mailbox (docs/protocol.md 7.5), when the token was issued with the device's mailbox key and the
    /// server keeps mailboxes.
    public let mailbox: MailboxAddress?

    /// Creates credentials.
    public init(
        tokenID: String,
        jwt: String,
        seed: String,
        creds: String,
        endpoint: String,
        expiresAt: Date,
        permissions: NatsPermissionSet,
        namespace: VaultNamespace,
        clientType: NatsClientType = .app,
        mailbox: MailboxAddress? = nil
    ) {
        self.tokenID = tokenID
        self.jwt = jwt
        self.seed = seed
        self.creds = creds
        self.endpoint = endpoint
        self.expiresAt = expiresAt
        self.permissions = permissions
        self.namespace = namespace
        self.clientType = clientType
        self.mailbox = mailbox
    }

    /// The member's GUID.
    public var userGUID: String { namespace.userGUID }

    /// Whether nats-server no longer accepts the token at `date`.
    public func isExpired(at date: Date) -> Bool { date >= expiresAt }

    /// Whether the token has expired now.
    public var isExpired: Bool { isExpired(at: Date()) }

    /// Whether less than `refreshWindow` of the token's life remains at `date` (or it has expired): time to
    /// get a new one.
    public func shouldRefresh(at date: Date, refreshWindow: TimeInterval = NatsCredentials.defaultRefreshWindow) -> Bool
    {
        expiresAt.timeIntervalSince(date) < refreshWindow
    }

    /// The time left at `date` (negative once expired).
    public func remainingLifetime(at date: Date) -> TimeInterval { expiresAt.timeIntervalSince(date) }

    /// Names the token, namespace, endpoint and expiry; never the JWT, seed or creds.
    public var description: String {
        "NatsCredentials(token: \(tokenID), \(clientType.rawValue), \(namespace.ownerSpace), endpoint: \(endpoint), expires: \(expiresAt), jwt/seed/creds: <redacted>)"
    }

    /// Same as ``description``.
    public var debugDescription: String { description }

    /// A mirror without the secrets, so `dump(_:)` and debugger summaries do not show them.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "tokenID": tokenID, "endpoint": endpoint, "expiresAt": expiresAt, "namespace": namespace.ownerSpace,
                "clientType": clientType.rawValue, "secrets": "<redacted>",
            ]
        )
    }

    // MARK: Codable

    private enum CodingKeys: String, CodingKey {
        case tokenID = "token_id"
        case jwt
        case seed
        case creds
        case endpoint
        case expiresAt = "expires_at"
        case publish
        case subscribe
        case userGUID = "user_guid"
        case clientType = "client_type"
        case mailbox
    }

    /// Decodes stored credentials; the GUID is validated as a subject token.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        tokenID = try container.decode(String.self, forKey: .tokenID)
        jwt = try container.decode(String.self, forKey: .jwt)
        seed = try container.decode(String.self, forKey: .seed)
        creds = try container.decode(String.self, forKey: .creds)
        endpoint = try container.decode(String.self, forKey: .endpoint)
        expiresAt = try container.decode(Date.self, forKey: .expiresAt)
        permissions = NatsPermissionSet(
            publish: try container.decode([String].self, forKey: .publish),
            subscribe: try container.decode([String].self, forKey: .subscribe)
        )
        let guid = try container.decode(String.self, forKey: .userGUID)
        do {
            namespace = try VaultNamespace(userGUID: guid)
        } catch {
            throw DecodingError.dataCorruptedError(forKey: .userGUID, in: container, debugDescription: error.message)
        }
        clientType = try container.decodeIfPresent(NatsClientType.self, forKey: .clientType) ?? .app
        mailbox = try container.decodeIfPresent(MailboxAddress.self, forKey: .mailbox)
    }

    /// Encodes the credentials for the store.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(tokenID, forKey: .tokenID)
        try container.encode(jwt, forKey: .jwt)
        try container.encode(seed, forKey: .seed)
        try container.encode(creds, forKey: .creds)
        try container.encode(endpoint, forKey: .endpoint)
        try container.encode(expiresAt, forKey: .expiresAt)
        try container.encode(permissions.publish, forKey: .publish)
        try container.encode(permissions.subscribe, forKey: .subscribe)
        try container.encode(namespace.userGUID, forKey: .userGUID)
        try container.encode(clientType, forKey: .clientType)
        try container.encodeIfPresent(mailbox, forKey: .mailbox)
    }
}
