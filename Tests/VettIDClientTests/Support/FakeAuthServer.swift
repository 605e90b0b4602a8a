// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes
import OpenAPIRuntime

/// An in-memory imitation of the member-auth endpoints, behind a fake transport (unit tests only; the live
/// server is exercised in Server/Tests/EndToEndTests).
actor FakeAuthServer {
    struct Account {
        var password: String
    }

    private var accounts: [String: Account] = [:]
    private var validAccess: Set<String> = []
    private var validRefresh: Set<String> = []
    private var counter = 0
    /// When set, login puts the access token only in `Set-Cookie` and leaves the body's empty.
    var cookieOnly = false
    private(set) var refreshCalls = 0
    private(set) var logoutCalls = 0

    func setCookieOnly(_ value: Bool) { cookieOnly = value }

    /// Revokes every token, as a server-side logout-everywhere would.
    func revokeAll() {
        validAccess.removeAll()
        validRefresh.removeAll()
    }

    /// Expires every access token but keeps refresh tokens.
    func expireAccessTokens() {
        validAccess.removeAll()
    }

    func handle(_ request: RecordedRequest) -> (HTTPResponse, HTTPBody?) {
        let body = (try? JSONSerialization.jsonObject(with: request.body)) as? [String: Any] ?? [:]
        switch (request.method, request.path) {
        case (.post, "/auth/register"):
            guard let email = body["email"] as? String, let password = body["password"] as? String else {
                return errorResponse(.badRequest, code: "invalid_request")
            }
            guard email.contains("@") else { return errorResponse(.badRequest, code: "invalid_email") }
            guard password.count >= 12 else {
                return jsonResponse(
                    .badRequest,
                    #"{"error":"weak_password","error_description":"Password too weak","reasons":["at least 12 characters"],"score":0}"#
                )
            }
            guard accounts[email] == nil else { return errorResponse(.conflict, code: "email_taken") }
            accounts[email] = Account(password: password)
            return jsonResponse(.created, #"{"user":\#(userJSON(email: email))}"#)
        case (.post, "/auth/login"):
            guard let email = body["email"] as? String, let password = body["password"] as? String,
                accounts[email]?.password == password
            else { return errorResponse(.unauthorized, code: "invalid_credentials") }
            return issueTokens(email: email)
        case (.post, "/auth/refresh"):
            refreshCalls += 1
            guard let token = body["refresh_token"] as? String, validRefresh.remove(token) != nil else {
                return errorResponse(.badRequest, code: "invalid_grant")
            }
            return issueTokens(email: "member@example.com")
        case (.get, "/auth/me"):
            guard authorized(request) else { return errorResponse(.unauthorized, code: "invalid_token") }
            return jsonResponse(.ok, userJSON(email: "member@example.com"))
        case (.post, "/auth/logout"):
            logoutCalls += 1
            guard authorized(request) else { return errorResponse(.unauthorized, code: "invalid_token") }
            revokeAll()
            return (
                HTTPResponse(
                    status: .noContent,
                    headerFields: [.setCookie: "auth-token=; Max-Age=0; HttpOnly; Secure; SameSite=Strict"]),
                nil
            )
        default:
            return errorResponse(.notFound, code: "not_found")
        }
    }

    private func authorized(_ request: RecordedRequest) -> Bool {
        guard let header = request.headers[.authorization], header.hasPrefix("Bearer ") else { return false }
        return validAccess.contains(String(header.dropFirst("Bearer ".count)))
    }

    private func issueTokens(email: String) -> (HTTPResponse, HTTPBody?) {
        counter += 1
        let access = "access-\(counter)"
        let refresh = "refresh-\(counter)"
        validAccess.insert(access)
        validRefresh.insert(refresh)
        let cookie = "auth-token=\(access); HttpOnly; Secure; SameSite=Strict; Path=/"
        return jsonResponse(
            .ok,
            tokenResponseJSON(access: cookieOnly ? "" : access, refresh: refresh, email: email),
            headers: [.setCookie: cookie]
        )
    }

    /// A transport that routes to this server.
    nonisolated func transport() -> FakeTransport {
        FakeTransport { request in await self.handle(request) }
    }
}
