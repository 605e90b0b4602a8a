// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation

/// A DPoP-bound Gate access token from `POST /token`, kept in memory only.
public struct GateAccessToken: Sendable, Equatable, CustomStringConvertible {
    /// The token value, sent as `Authorization: DPoP <value>`. Never log it.
    public let value: String
    /// When the token expires (the server's `expires_in` from the time it was received).
    public let expiresAt: Date

    /// Creates a token.
    public init(value: String, expiresAt: Date) {
        self.value = value
        self.expiresAt = expiresAt
    }

    /// Whether the token should be replaced at `date`: it expires within `margin` seconds.
    public func needsRefresh(at date: Date, margin: TimeInterval) -> Bool {
        date >= expiresAt.addingTimeInterval(-margin)
    }

    /// The expiry only, never the value.
    public var description: String { "GateAccessToken(expires: \(expiresAt))" }
}
