// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDClient

/// What the messaging setup screen shows.
public enum NatsSetupState: Sendable, Equatable {
    /// Nothing started yet.
    case initial
    /// Allocating the member's NATS namespaces.
    case creatingAccount
    /// Getting a NATS token for this device.
    case generatingToken
    /// Connecting to nats-server with the token.
    case connecting
    /// Connected; the server's view of the account and tokens.
    case connected(NatsStatus)
    /// Setup stopped; ``NatsSetupViewModel/retry()`` starts again (an existing account is fine).
    case error(message: String)
    /// The member's session has ended (signed out, revoked elsewhere, or expired): show the sign-in screen;
    /// the background token refresh has stopped too (`NatsRefreshOutcome.signInRequired` of `VettIDClient`).
    case signInRequired
}
