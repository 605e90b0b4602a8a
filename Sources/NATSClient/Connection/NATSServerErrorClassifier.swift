// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// Classification of every -ERR the server sends (nats-server client.go:4505-4530; ADR-40 "Error Handling").

/// A server `-ERR`, classified.
public struct NATSServerError: Sendable, Hashable {
    /// The error as a client error code and the server's text.
    public let error: NATSError
    /// Whether the server closes the connection after sending it.
    public let isFatal: Bool

    /// Classifies the text of a `-ERR` line (quotes already removed).
    public init(text: String) {
        let lowered = text.lowercased()
        func make(_ code: NATSError.Code, fatal: Bool) -> (NATSError, Bool) { (NATSError(code, text), fatal) }
        let result: (NATSError, Bool)
        if lowered.hasPrefix("permissions violation") {
            result = make(.permissionsViolation, fatal: false)
        } else if lowered.hasPrefix("authorization violation") {
            result = make(.authorizationViolation, fatal: true)
        } else if lowered.hasPrefix("user authentication expired")
            || lowered.hasPrefix("account authentication expired")
        {
            result = make(.authenticationExpired, fatal: true)
        } else if lowered.hasPrefix("user authentication revoked") {
            result = make(.authenticationRevoked, fatal: true)
        } else if lowered.hasPrefix("stale connection") {
            result = make(.staleConnection, fatal: true)
        } else if lowered.hasPrefix("maximum connections exceeded") {
            result = make(.maxConnectionsExceeded, fatal: true)
        } else if lowered.hasPrefix("maximum subscriptions exceeded") {
            result = make(.maxSubscriptionsExceeded, fatal: false)
        } else if lowered.hasPrefix("maximum payload violation") {
            result = make(.maxPayloadViolation, fatal: true)
        } else if lowered.hasPrefix("invalid subject") || lowered.hasPrefix("invalid publish subject") {
            result = make(.invalidSubject, fatal: false)
        } else if lowered.hasPrefix("unknown protocol operation") || lowered.contains("maximum control line exceeded")
            || lowered.hasPrefix("parser error")
        {
            result = make(.protocolError, fatal: true)
        } else if lowered.hasPrefix("secure connection - tls required") {
            result = make(.tlsRequired, fatal: true)
        } else {
            // Unknown errors are treated as fatal: the server closes the connection after most -ERRs.
            result = make(.serverError, fatal: true)
        }
        self.error = result.0
        self.isFatal = result.1
    }
}
