// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation

@testable import VettIDClient

/// A token response body for the fake servers.
func tokenResponseJSON(
    access: String, refresh: String, tokenType: String = "Bearer", email: String = "member@example.com"
) -> String {
    #"""
    {"access_token":"\#(access)","token_type":"\#(tokenType)","expires_in":900,"refresh_token":"\#(refresh)",\#
    "refresh_token_expires_in":2592000,"user":\#(userJSON(email: email))}
    """#
}

func userJSON(email: String = "member@example.com") -> String {
    #"{"id":"6f1c0b4e-8a43-4d5e-9a3b-2c1d0e9f8a7b","email":"\#(email)","created_at":"2026-01-02T03:04:05Z"}"#
}

func sessionTokens(access: String, refresh: String?) -> SessionTokens {
    SessionTokens(
        accessToken: access,
        tokenType: "Bearer",
        accessTokenExpiresAt: Date().addingTimeInterval(900),
        refreshToken: refresh,
        refreshTokenExpiresAt: Date().addingTimeInterval(86_400)
    )
}
