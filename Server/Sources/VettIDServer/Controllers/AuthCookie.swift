// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// The `auth-token` cookie that carries the access token for browser clients.
///
/// Always `HttpOnly; Secure; SameSite=Strict; Path=/`, with `Max-Age` equal to the token's lifetime.
struct AuthCookie: Sendable {
    static let name = "auth-token"

    /// A `Set-Cookie` value that stores `token` for `maxAge` seconds.
    func setting(_ token: String, maxAge: Int) -> String {
        "\(Self.name)=\(token); Max-Age=\(maxAge); Path=/; HttpOnly; Secure; SameSite=Strict"
    }

    /// A `Set-Cookie` value that deletes the cookie.
    func clearing() -> String {
        "\(Self.name)=; Max-Age=0; Path=/; HttpOnly; Secure; SameSite=Strict"
    }
}
