// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation
public import VettIDMessaging

/// An active NATS token as the server lists it (never its secrets).
public struct NatsTokenInfo: Sendable, Hashable {
    /// The token id (what ``VaultService/revokeNatsToken(id:)`` takes).
    public let tokenID: String
    /// Whom the token is for.
    public let clientType: NatsClientType
    /// The device id given when it was issued, if any.
    public let deviceID: String?
    /// The token's user public NKey (`U…`).
    public let userPublicKey: String
    /// When it was issued.
    public let issuedAt: Date
    /// When it expires.
    public let expiresAt: Date

    /// Creates a token record.
    public init(
        tokenID: String, clientType: NatsClientType, deviceID: String?, userPublicKey: String, issuedAt: Date,
        expiresAt: Date
    ) {
        self.tokenID = tokenID
        self.clientType = clientType
        self.deviceID = deviceID
        self.userPublicKey = userPublicKey
        self.issuedAt = issuedAt
        self.expiresAt = expiresAt
    }
}
