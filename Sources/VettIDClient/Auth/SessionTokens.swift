// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation

/// The tokens of a signed-in member session, as kept in the ``SecureStore``.
public struct SessionTokens: Codable, Sendable, Equatable {
    /// The access token (a JWT).
    public var accessToken: String
    /// `Bearer`, or `DPoP` when the token is bound to a device key.
    public var tokenType: String
    /// When the access token expires.
    public var accessTokenExpiresAt: Date
    /// The single-use refresh token, if the server issued one.
    public var refreshToken: String?
    /// When the refresh token expires.
    public var refreshTokenExpiresAt: Date?

    /// Creates a token set.
    public init(
        accessToken: String,
        tokenType: String,
        accessTokenExpiresAt: Date,
        refreshToken: String?,
        refreshTokenExpiresAt: Date?
    ) {
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.accessTokenExpiresAt = accessTokenExpiresAt
        self.refreshToken = refreshToken
        self.refreshTokenExpiresAt = refreshTokenExpiresAt
    }

    /// The `Authorization` scheme for this token: `DPoP` for bound tokens, otherwise `Bearer`.
    public var authorizationScheme: String {
        tokenType.caseInsensitiveCompare("DPoP") == .orderedSame ? "DPoP" : "Bearer"
    }

    /// Whether the access token has expired at `date`.
    public func isAccessTokenExpired(at date: Date = Date()) -> Bool {
        accessTokenExpiresAt <= date
    }

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case tokenType = "token_type"
        case accessTokenExpiresAt = "access_token_expires_at"
        case refreshToken = "refresh_token"
        case refreshTokenExpiresAt = "refresh_token_expires_at"
    }
}

extension SessionTokens: CustomStringConvertible {
    /// A description without the token values.
    public var description: String {
        "SessionTokens(type: \(tokenType), expires: \(accessTokenExpiresAt), refreshable: \(refreshToken != nil))"
    }
}
