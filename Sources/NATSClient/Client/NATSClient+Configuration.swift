// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Logging

extension NATSClient {
    /// Everything the client needs to connect; immutable once the client is created.
    public struct Configuration: Sendable {
        /// Server URLs (`nats://host:port`, `tls://…`, `host`, `host:port`); tried in order.
        public var servers: [String]
        /// Connection name shown in server monitoring.
        public var name: String?
        /// Whether the server delivers our own publishes to our subscriptions.
        public var echo: Bool
        /// Ask the server for `+OK` after each operation.
        public var verbose: Bool
        /// Ask the server for strict checks.
        public var pedantic: Bool
        /// Credentials.
        public var auth: NATSAuth
        /// Limit for the TCP connect and for the handshake.
        public var connectTimeout: Duration
        /// Default request timeout.
        public var requestTimeout: Duration
        /// Interval of keepalive pings.
        public var pingInterval: Duration
        /// Keepalive pings without a pong before the connection is considered stale.
        public var maxPingsOut: Int
        /// Prefix of reply subjects (`_INBOX`).
        public var inboxPrefix: String
        /// Reconnect behaviour.
        public var reconnect: NATSReconnectPolicy
        /// Keep retrying when the first connect fails instead of throwing.
        public var retryOnFailedConnect: Bool
        /// Bytes of publishes kept while disconnected; beyond this publish throws `bufferFull`.
        public var reconnectBufferSize: Int
        /// Bytes of publishes queued while connected but not yet written; beyond this publish throws `bufferFull`.
        public var maxPendingOutboundBytes: Int
        /// Messages buffered per subscription before new ones are dropped (slow consumer).
        public var subscriptionPendingLimit: Int
        /// Longest control line accepted from the server.
        public var maxControlLine: Int
        /// Require TLS even if the server does not.
        public var requireTLS: Bool
        /// TLS settings (roots, client certificate, server name).
        public var tls: NATSTLSConfiguration
        /// Logger for connection lifecycle messages (never payloads or secrets).
        public var logger: Logger
        /// Network stack: Network.framework on Apple platforms by default, POSIX sockets on Linux.
        public var transport: NATSTransport
        /// Longest a graceful shutdown of ``NATSClient/run()`` waits for ``NATSClient/drain(timeout:)``.
        public var drainTimeout: Duration
        /// Opens the connection's channels in place of the network: tests set it to run the client over in-memory
        /// channels; `nil` (always, outside tests) connects as ``transport`` says.
        var connector: NATSChannelConnector?

        /// Creates a configuration. Defaults follow nats.go where it has one.
        public init(
            servers: [String] = ["nats://127.0.0.1:4222"],
            name: String? = nil,
            echo: Bool = true,
            verbose: Bool = false,
            pedantic: Bool = false,
            auth: NATSAuth = .none,
            connectTimeout: Duration = .seconds(2),
            requestTimeout: Duration = .seconds(5),
            pingInterval: Duration = .seconds(120),
            maxPingsOut: Int = 2,
            inboxPrefix: String = "_INBOX",
            reconnect: NATSReconnectPolicy = NATSReconnectPolicy(),
            retryOnFailedConnect: Bool = false,
            reconnectBufferSize: Int = 8 * 1024 * 1024,
            maxPendingOutboundBytes: Int = 64 * 1024 * 1024,
            subscriptionPendingLimit: Int = 65_536,
            maxControlLine: Int = 64 * 1024,
            requireTLS: Bool = false,
            tls: NATSTLSConfiguration = NATSTLSConfiguration(),
            logger: Logger = Logger(label: "nats", factory: { _ in SwiftLogNoOpLogHandler() }),
            transport: NATSTransport = .automatic,
            drainTimeout: Duration = .seconds(30)
        ) {
            self.servers = servers
            self.name = name
            self.echo = echo
            self.verbose = verbose
            self.pedantic = pedantic
            self.auth = auth
            self.connectTimeout = connectTimeout
            self.requestTimeout = requestTimeout
            self.pingInterval = pingInterval
            self.maxPingsOut = maxPingsOut
            self.inboxPrefix = inboxPrefix
            self.reconnect = reconnect
            self.retryOnFailedConnect = retryOnFailedConnect
            self.reconnectBufferSize = reconnectBufferSize
            self.maxPendingOutboundBytes = maxPendingOutboundBytes
            self.subscriptionPendingLimit = subscriptionPendingLimit
            self.maxControlLine = maxControlLine
            self.requireTLS = requireTLS
            self.tls = tls
            self.logger = logger
            self.transport = transport
            self.drainTimeout = drainTimeout
        }
    }
}
