// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import VettIDAPI
import VettIDCore

extension SessionTokens {
    /// Builds the session from a `TokenResponse`, taking the access token from the body or, when the body's is
    /// empty, from the `auth-token` cookie in `Set-Cookie`.
    init(tokenResponse: Components.Schemas.TokenResponse, setCookie: String?, now: Date = Date()) throws {
        var accessToken = tokenResponse.accessToken
        if accessToken.isEmpty, let setCookie,
            let cookie = CookieParser.value(named: "auth-token", inSetCookie: setCookie)
        {
            accessToken = cookie
        }
        guard !accessToken.isEmpty else {
            throw APIError(code: .invalidResponse, description: "The server issued no access token.")
        }
        self.init(
            accessToken: accessToken,
            tokenType: tokenResponse.tokenType,
            accessTokenExpiresAt: now.addingTimeInterval(TimeInterval(tokenResponse.expiresIn)),
            refreshToken: tokenResponse.refreshToken.isEmpty ? nil : tokenResponse.refreshToken,
            refreshTokenExpiresAt: now.addingTimeInterval(TimeInterval(tokenResponse.refreshTokenExpiresIn))
        )
    }
}

/// Reads cookie values from `Set-Cookie` header values.
enum CookieParser {
    /// The value of the cookie `name` in a `Set-Cookie` value (or several joined by `, ` as HTTPTypes combines
    /// repeated fields), or `nil`. An empty value (a clearing cookie) returns `nil`.
    static func value(named name: String, inSetCookie header: String) -> String? {
        // Each cookie starts with `name=value`; attributes follow `;`. Split on commas that start a new cookie.
        for candidate in header.components(separatedBy: ",") {
            let pair = candidate.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
            let trimmed = pair.trimmingCharacters(in: .whitespaces)
            guard let equals = trimmed.firstIndex(of: "=") else { continue }
            let cookieName = trimmed[..<equals]
            let value = trimmed[trimmed.index(after: equals)...]
            if cookieName == name {
                return value.isEmpty ? nil : String(value)
            }
        }
        return nil
    }
}
