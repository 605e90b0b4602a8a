// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation

/// The server's answer to a token revocation: nats-server refuses the token from now on and cuts off its
/// connections.
public struct NatsTokenRevocation: Sendable, Hashable {
    /// The revoked token.
    public let tokenID: String
    /// The token's status, `revoked`.
    public let status: String
    /// When it was revoked.
    public let revokedAt: Date

    /// Creates a revocation record.
    public init(tokenID: String, status: String, revokedAt: Date) {
        self.tokenID = tokenID
        self.status = status
        self.revokedAt = revokedAt
    }
}
