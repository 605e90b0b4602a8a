// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// The JSON of a server INFO line (nats-server server/server.go `Info`). Only the fields the client uses
// are required; everything else is optional so newer or older servers decode.

/// What a server announces in `INFO`.
public struct NATSServerInfo: Decodable, Sendable, Equatable {
    /// Unique server id.
    public var serverID: String
    /// Server name.
    public var serverName: String?
    /// Server version (`2.9.10`).
    public var version: String?
    /// Protocol level; 1 means the server can send asynchronous INFO.
    public var proto: Int
    /// Host the server listens on.
    public var host: String?
    /// Port the server listens on.
    public var port: Int?
    /// Whether HPUB/HMSG are supported.
    public var headers: Bool
    /// Whether the client must authenticate.
    public var authRequired: Bool
    /// Whether TLS is required.
    public var tlsRequired: Bool
    /// Whether TLS is available (but optional).
    public var tlsAvailable: Bool
    /// Largest payload the server accepts from this connection.
    public var maxPayload: Int
    /// The id the server gave this client.
    public var clientID: UInt64?
    /// The client's address as the server sees it.
    public var clientIP: String?
    /// Nonce to sign for NKey/JWT authentication.
    public var nonce: String?
    /// Cluster name.
    public var cluster: String?
    /// Client URLs of the other servers in the cluster (`host:port`).
    public var connectURLs: [String]
    /// Whether the server is in lame duck mode (about to shut down).
    public var lameDuckMode: Bool
    /// Whether JetStream is enabled.
    public var jetStream: Bool

    /// Creates an INFO value (for tests and fakes).
    public init(
        serverID: String,
        proto: Int = 1,
        headers: Bool = true,
        authRequired: Bool = false,
        tlsRequired: Bool = false,
        maxPayload: Int = 1_048_576,
        nonce: String? = nil,
        connectURLs: [String] = [],
        lameDuckMode: Bool = false
    ) {
        self.serverID = serverID
        self.proto = proto
        self.headers = headers
        self.authRequired = authRequired
        self.tlsRequired = tlsRequired
        self.tlsAvailable = false
        self.maxPayload = maxPayload
        self.nonce = nonce
        self.connectURLs = connectURLs
        self.lameDuckMode = lameDuckMode
        self.jetStream = false
    }

    private enum CodingKeys: String, CodingKey {
        case serverID = "server_id"
        case serverName = "server_name"
        case version, proto, host, port, headers
        case authRequired = "auth_required"
        case tlsRequired = "tls_required"
        case tlsAvailable = "tls_available"
        case maxPayload = "max_payload"
        case clientID = "client_id"
        case clientIP = "client_ip"
        case nonce, cluster
        case connectURLs = "connect_urls"
        case lameDuckMode = "ldm"
        case jetStream = "jetstream"
    }

    /// Decodes INFO JSON; everything but `server_id` is optional.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        serverID = try container.decodeIfPresent(String.self, forKey: .serverID) ?? ""
        serverName = try container.decodeIfPresent(String.self, forKey: .serverName)
        version = try container.decodeIfPresent(String.self, forKey: .version)
        proto = try container.decodeIfPresent(Int.self, forKey: .proto) ?? 0
        host = try container.decodeIfPresent(String.self, forKey: .host)
        port = try container.decodeIfPresent(Int.self, forKey: .port)
        headers = try container.decodeIfPresent(Bool.self, forKey: .headers) ?? false
        authRequired = try container.decodeIfPresent(Bool.self, forKey: .authRequired) ?? false
        tlsRequired = try container.decodeIfPresent(Bool.self, forKey: .tlsRequired) ?? false
        tlsAvailable = try container.decodeIfPresent(Bool.self, forKey: .tlsAvailable) ?? false
        maxPayload = try container.decodeIfPresent(Int.self, forKey: .maxPayload) ?? 1_048_576
        clientID = try container.decodeIfPresent(UInt64.self, forKey: .clientID)
        clientIP = try container.decodeIfPresent(String.self, forKey: .clientIP)
        nonce = try container.decodeIfPresent(String.self, forKey: .nonce)
        cluster = try container.decodeIfPresent(String.self, forKey: .cluster)
        connectURLs = try container.decodeIfPresent([String].self, forKey: .connectURLs) ?? []
        lameDuckMode = try container.decodeIfPresent(Bool.self, forKey: .lameDuckMode) ?? false
        jetStream = try container.decodeIfPresent(Bool.self, forKey: .jetStream) ?? false
    }
}
