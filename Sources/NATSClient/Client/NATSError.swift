// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCore

/// The family of ``NATSError``.
public enum NATSErrorDomain: ErrorDomain {}

/// An error from the NATS client: a failed operation, a server `-ERR`, or a connection problem.
///
/// Match on `code`; the set of codes is open and may grow. `catch NATSError.Code.noResponders` works
/// through the `~=` overload.
public typealias NATSError = DomainError<NATSErrorDomain>

extension NATSError.Code {
    /// The connection is closed (by `close()`, `drain()` or after giving up reconnecting).
    public static let connectionClosed = Self(rawValue: "connection_closed")
    /// The operation needs a connection and there is none right now.
    public static let notConnected = Self(rawValue: "not_connected")
    /// No server could be reached.
    public static let noServers = Self(rawValue: "no_servers")
    /// A request, flush, connect or drain did not finish in time.
    public static let timeout = Self(rawValue: "timeout")
    /// A request found no subscriber (status 503).
    public static let noResponders = Self(rawValue: "no_responders")
    /// The payload is larger than the server's `max_payload`.
    public static let maxPayloadExceeded = Self(rawValue: "max_payload_exceeded")
    /// The subject or queue name is not valid.
    public static let invalidSubject = Self(rawValue: "invalid_subject")
    /// The outbound or reconnect buffer is full; the publish was not accepted.
    public static let bufferFull = Self(rawValue: "buffer_full")
    /// The calling task was cancelled while the operation waited (for example a `send` waiting for room).
    public static let cancelled = Self(rawValue: "cancelled")
    /// A subscription dropped messages because its consumer did not keep up.
    public static let slowConsumer = Self(rawValue: "slow_consumer")
    /// The configuration is invalid (for example an unparsable server URL or creds file).
    public static let invalidConfiguration = Self(rawValue: "invalid_configuration")
    /// The server required TLS or the client required it and it is not available.
    public static let tlsRequired = Self(rawValue: "tls_required")
    /// `-ERR 'Authorization Violation'`. Fatal.
    public static let authorizationViolation = Self(rawValue: "authorization_violation")
    /// `-ERR 'User Authentication Expired'` / `'Account Authentication Expired'`. Fatal.
    public static let authenticationExpired = Self(rawValue: "authentication_expired")
    /// `-ERR 'User Authentication Revoked'`. Fatal.
    public static let authenticationRevoked = Self(rawValue: "authentication_revoked")
    /// `-ERR 'Permissions Violation …'`. Not fatal.
    public static let permissionsViolation = Self(rawValue: "permissions_violation")
    /// `-ERR 'Stale Connection'`, or our own pings went unanswered. Fatal for the connection.
    public static let staleConnection = Self(rawValue: "stale_connection")
    /// `-ERR 'maximum connections exceeded'`. Fatal.
    public static let maxConnectionsExceeded = Self(rawValue: "max_connections_exceeded")
    /// `-ERR 'maximum subscriptions exceeded'`. Not fatal.
    public static let maxSubscriptionsExceeded = Self(rawValue: "max_subscriptions_exceeded")
    /// `-ERR 'Maximum Payload Violation'`. Fatal.
    public static let maxPayloadViolation = Self(rawValue: "max_payload_violation")
    /// Protocol errors: `-ERR 'Unknown Protocol Operation'`, control line too long, or a malformed frame.
    public static let protocolError = Self(rawValue: "protocol_error")
    /// Any other `-ERR` from the server.
    public static let serverError = Self(rawValue: "server_error")
    /// The credentials could not be used (bad seed, signing callback failed).
    public static let authenticationFailed = Self(rawValue: "authentication_failed")
}
