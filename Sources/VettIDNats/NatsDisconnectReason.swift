// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import NATSClient
import VettIDClient

/// Why a NATS connection was lost, as far as the ``NatsConnectionManagerStateMachine`` cares.
public enum NatsDisconnectReason: Sendable, Hashable {
    /// nats-server refused or cut off the credentials (`User Authentication Expired`, `… Revoked`,
    /// `Authorization Violation`): reconnecting with them cannot work, new ones are needed.
    case credentialsRefused(String)
    /// Anything else (server restart, network loss, stale connection): `NATSClient` reconnects by itself.
    case other(String?)

    /// Classifies the error a `NATSClient` reported with `disconnected` or `closed`.
    public init(_ error: NATSError?) {
        switch error?.code {
        case NATSError.Code.authenticationExpired?, NATSError.Code.authenticationRevoked?,
            NATSError.Code.authorizationViolation?:
            self = .credentialsRefused(error?.code.rawValue ?? "")
        default:
            self = .other(error?.code.rawValue)
        }
    }

    /// Whether new credentials are needed.
    public var needsNewCredentials: Bool {
        if case .credentialsRefused = self { return true }
        return false
    }
}
