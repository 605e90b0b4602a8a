// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// The member's NATS account and active tokens (`GET /vault/nats/status`).
public struct NatsStatus: Sendable, Hashable {
    /// Whether the namespaces are allocated.
    public let hasAccount: Bool
    /// The account, when there is one.
    public let account: NatsAccount?
    /// The nats-server URL tokens are valid on (`tls://…` or `nats://…`), when the server has one.
    public let endpoint: String?
    /// The tokens that are neither expired nor revoked.
    public let activeTokens: [NatsTokenInfo]

    /// Creates a status.
    public init(hasAccount: Bool, account: NatsAccount?, endpoint: String?, activeTokens: [NatsTokenInfo]) {
        self.hasAccount = hasAccount
        self.account = account
        self.endpoint = endpoint
        self.activeTokens = activeTokens
    }
}
