// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCore

/// An error from the NATS client: a failed operation, a server `-ERR`, or a connection problem.
///
/// Match on ``code``; the set of codes is open and may grow. `catch NATSError.Code.noResponders` works
/// through the `~=` overload.
public struct NATSError: CodedError, Hashable {
    /// What went wrong, as a stable string.
    public struct Code: ErrorCode {
        /// The stable name of the code.
        public let rawValue: String

        /// Creates a code from its stable name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The connection is closed (by `close()`, `drain()` or after giving up reconnecting).
        public static let connectionClosed = Code(rawValue: "connection_closed")
        /// The operation needs a connection and there is none right now.
        public static let notConnected = Code(rawValue: "not_connected")
        /// No server could be reached.
        public static let noServers = Code(rawValue: "no_servers")
        /// A request, flush, connect or drain did not finish in time.
        public static let timeout = Code(rawValue: "timeout")
        /// A request found no subscriber (status 503).
        public static let noResponders = Code(rawValue: "no_responders")
        /// The payload is larger than the server's `max_payload`.
        public static let maxPayloadExceeded = Code(rawValue: "max_payload_exceeded")
        /// The subject or queue name is not valid.
        public static let invalidSubject = Code(rawValue: "invalid_subject")
        /// The outbound or reconnect buffer is full; the publish was not accepted.
        public static let bufferFull = Code(rawValue: "buffer_full")
        /// The calling task was cancelled while the operation waited (for example a `send` waiting for room).
        public static let cancelled = Code(rawValue: "cancelled")
        /// A subscription dropped messages because its consumer did not keep up.
        public static let slowConsumer = Code(rawValue: "slow_consumer")
        /// The configuration is invalid (for example an unparsable server URL or creds file).
        public static let invalidConfiguration = Code(rawValue: "invalid_configuration")
        /// The server required TLS or the client required it and it is not available.
        public static let tlsRequired = Code(rawValue: "tls_required")
        /// `-ERR 'Authorization Violation'`. Fatal.
        public static let authorizationViolation = Code(rawValue: "authorization_violation")
        /// `-ERR 'User Authentication Expired'` / `'Account Authentication Expired'`. Fatal.
        public static let authenticationExpired = Code(rawValue: "authentication_expired")
        /// `-ERR 'User Authentication Revoked'`. Fatal.
        public static let authenticationRevoked = Code(rawValue: "authentication_revoked")
        /// `-ERR 'Permissions Violation …'`. Not fatal.
        public static let permissionsViolation = Code(rawValue: "permissions_violation")
        /// `-ERR 'Stale Connection'`, or our own pings went unanswered. Fatal for the connection.
        public static let staleConnection = Code(rawValue: "stale_connection")
        /// `-ERR 'maximum connections exceeded'`. Fatal.
        public static let maxConnectionsExceeded = Code(rawValue: "max_connections_exceeded")
        /// `-ERR 'maximum subscriptions exceeded'`. Not fatal.
        public static let maxSubscriptionsExceeded = Code(rawValue: "max_subscriptions_exceeded")
        /// `-ERR 'Maximum Payload Violation'`. Fatal.
        public static let maxPayloadViolation = Code(rawValue: "max_payload_violation")
        /// Protocol errors: `-ERR 'Unknown Protocol Operation'`, control line too long, or a malformed frame.
        public static let protocolError = Code(rawValue: "protocol_error")
        /// Any other `-ERR` from the server.
        public static let serverError = Code(rawValue: "server_error")
        /// The credentials could not be used (bad seed, signing callback failed).
        public static let authenticationFailed = Code(rawValue: "authentication_failed")
    }

    /// What went wrong.
    public let code: Code
    /// Human-readable detail: for server errors the `-ERR` text. Never contains credentials.
    public let message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }
}
