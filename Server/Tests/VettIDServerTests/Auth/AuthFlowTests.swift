// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import VettIDCore
import VettIDTestSupport

@testable import VettIDServer

/// Member auth through the HTTP router, on SQLite and PostgreSQL.
@Suite struct AuthFlowTests {
    let password = "vivid-Otter-parsley-42"

    @Test(arguments: TestEngine.available)
    func registerLoginMeRefreshLogout(engine: TestEngine) async throws {
        try await TestApp.withApp(engine) { client, _ in
            let registered = try await client.post(
                "/auth/register", ["email": "Alice@Example.com", "password": password])
            #expect(registered.status == .created)
            let user = try #require(registered.json["user"] as? [String: Any])
            #expect(user["email"] as? String == "alice@example.com")
            #expect((user["id"] as? String).flatMap(UUID.init(uuidString:)) != nil)
            #expect(user["first_name"] == nil && user["last_name"] == nil, "no name given, none stored")
            #expect(registered.json["message"] as? String == "Account created.")

            let login = try await client.post("/auth/login", ["email": "ALICE@example.COM", "password": password])
            #expect(login.status == .ok)
            let tokens = login.json
            let access = try #require(tokens["access_token"] as? String)
            let refresh = try #require(tokens["refresh_token"] as? String)
            #expect(tokens["token_type"] as? String == "Bearer")
            #expect(tokens["expires_in"] as? Int == 900)
            let cookie = try #require(login.headers[.setCookie])
            #expect(cookie.hasPrefix("auth-token=\(access);"))
            for attribute in ["HttpOnly", "Secure", "SameSite=Strict", "Path=/", "Max-Age=900"] {
                #expect(cookie.contains(attribute), "cookie lacks \(attribute)")
            }
            #expect(login.headers[.cacheControl] == "no-store", "a token response is never cached (RFC 6749 §5.1)")
            #expect(registered.headers[.cacheControl] == "no-store")

            let me = try await client.get("/auth/me", bearer: access)
            #expect(me.status == .ok)
            // `{"user": …}`, the product documents' shape.
            #expect((me.json["user"] as? [String: Any])?["email"] as? String == "alice@example.com")

            let viaCookie = try await client.get("/auth/me", headers: [.cookie: "other=1; auth-token=\(access)"])
            #expect(viaCookie.status == .ok, "the auth-token cookie authenticates too")

            let refreshed = try await client.post("/auth/refresh", ["refresh_token": refresh])
            #expect(refreshed.status == .ok)
            #expect(refreshed.headers[.cacheControl] == "no-store")
            let newAccess = try #require(refreshed.json["access_token"] as? String)
            let newRefresh = try #require(refreshed.json["refresh_token"] as? String)
            #expect(newRefresh != refresh)
            #expect(try await client.get("/auth/me", bearer: newAccess).status == .ok)

            let logout = try await client.execute(
                uri: "/auth/logout", method: .post, headers: [.authorization: "Bearer \(newAccess)"])
            #expect(logout.status == .ok)
            #expect(logout.json["message"] as? String == "Logged out.")
            #expect(logout.headers[.setCookie]?.hasPrefix("auth-token=; Max-Age=0") == true)

            // Logout revokes the session: access and refresh tokens of it stop working at once.
            let afterLogout = try await client.get("/auth/me", bearer: newAccess)
            #expect(afterLogout.status == .unauthorized)
            #expect(afterLogout.errorCode == "invalid_token")
            #expect(afterLogout.headers[.wwwAuthenticate]?.hasPrefix("Bearer") == true)
            #expect(try await client.post("/auth/refresh", ["refresh_token": newRefresh]).errorCode == "invalid_grant")
        }
    }

    @Test(arguments: TestEngine.available)
    func reusingARefreshTokenRevokesTheWholeFamily(engine: TestEngine) async throws {
        try await TestApp.withApp(engine) { client, _ in
            let tokens = try await client.registerAndLogin(email: "bob@example.com")
            let first = try #require(tokens["refresh_token"] as? String)
            let rotated = try await client.post("/auth/refresh", ["refresh_token": first])
            #expect(rotated.status == .ok)
            let second = try #require(rotated.json["refresh_token"] as? String)
            let secondAccess = try #require(rotated.json["access_token"] as? String)

            // An attacker replays the first token: refused, and the family dies.
            let replay = try await client.post("/auth/refresh", ["refresh_token": first])
            #expect(replay.status == .badRequest)
            #expect(replay.errorCode == "invalid_grant")
            #expect(try await client.post("/auth/refresh", ["refresh_token": second]).errorCode == "invalid_grant")
            #expect(try await client.get("/auth/me", bearer: secondAccess).status == .unauthorized)
        }
    }

    @Test(arguments: TestEngine.available)
    func unknownEmailAndWrongPasswordLookTheSame(engine: TestEngine) async throws {
        try await TestApp.withApp(engine) { client, _ in
            _ = try await client.registerAndLogin(email: "carol@example.com")
            let wrongPassword = try await client.post(
                "/auth/login", ["email": "carol@example.com", "password": "not-the-password-1"])
            let unknownEmail = try await client.post(
                "/auth/login", ["email": "nobody@example.com", "password": "not-the-password-1"])
            let malformedEmail = try await client.post(
                "/auth/login", ["email": "not an email", "password": "not-the-password-1"])
            for response in [wrongPassword, unknownEmail, malformedEmail] {
                #expect(response.status == .unauthorized)
                #expect(response.errorCode == "invalid_credentials")
            }
            #expect(wrongPassword.body == unknownEmail.body)
            #expect(unknownEmail.body == malformedEmail.body)
        }
    }

    @Test(arguments: TestEngine.available)
    func registrationEnforcesEmailPasswordAndUniqueness(engine: TestEngine) async throws {
        try await TestApp.withApp(engine) { client, _ in
            let weak = try await client.post(
                "/auth/register", ["email": "dave@example.com", "password": "password1234"])
            #expect(weak.status == .badRequest)
            #expect(weak.errorCode == "weak_password")
            #expect((weak.json["reasons"] as? [String])?.isEmpty == false)
            #expect(weak.json["score"] is Int)

            let short = try await client.post("/auth/register", ["email": "dave@example.com", "password": "Zq9!xv"])
            #expect((short.json["reasons"] as? [String])?.contains("must be at least 12 characters long") == true)

            let badEmail = try await client.post("/auth/register", ["email": "dave.example.com", "password": password])
            #expect(badEmail.errorCode == "invalid_email")

            #expect(
                try await client.post("/auth/register", ["email": "dave@example.com", "password": password]).status
                    == .created)
            for variant in ["DAVE@example.com", " dave@EXAMPLE.com ", "ｄａｖｅ@example.com"] {
                let again = try await client.post("/auth/register", ["email": variant, "password": password])
                #expect(again.status == .conflict, "\(variant) is the same account")
                #expect(again.errorCode == "email_taken")
            }
        }
    }

    @Test(arguments: TestEngine.available)
    func registrationKeepsTheMembersNameAndRefusesBadOnes(engine: TestEngine) async throws {
        try await TestApp.withApp(engine) { client, _ in
            let registered = try await client.post(
                "/auth/register",
                ["email": "named@example.com", "password": password, "first_name": "  Zoë ", "last_name": "O'Brien"])
            #expect(registered.status == .created)
            let user = try #require(registered.json["user"] as? [String: Any])
            #expect(user["first_name"] as? String == "Zoë", "trimmed")
            #expect(user["last_name"] as? String == "O'Brien")
            let login = try await client.post("/auth/login", ["email": "named@example.com", "password": password])
            #expect((login.json["user"] as? [String: Any])?["first_name"] as? String == "Zoë")
            let me = try await client.get("/auth/me", bearer: try #require(login.json["access_token"] as? String))
            #expect(((me.json["user"] as? [String: Any])?["last_name"]) as? String == "O'Brien", "stored and read back")

            let blank = try await client.post(
                "/auth/register", ["email": "blank@example.com", "password": password, "first_name": "   "])
            #expect(blank.status == .created)
            #expect((blank.json["user"] as? [String: Any])?["first_name"] == nil, "a blank name is none")

            for (field, value) in [
                ("first_name", String(repeating: "a", count: 101)),
                ("last_name", "a" + String(repeating: "\u{301}", count: 100)),
                ("first_name", "tab\there"), ("last_name", "bell\u{7}"),
            ] {
                let refused = try await client.post(
                    "/auth/register", ["email": "refused@example.com", "password": password, field: value])
                #expect(refused.status == .badRequest, "\(field): \(value.debugDescription)")
                #expect(refused.errorCode == "invalid_request")
                #expect((refused.json["error_description"] as? String)?.contains(field) == true)
            }
            let nothingStored = try await client.post(
                "/auth/login", ["email": "refused@example.com", "password": password])
            #expect(nothingStored.status == .unauthorized, "a refused registration creates no account")
        }
    }

    @Test(arguments: TestEngine.available)
    func sqlMetacharactersAreData(engine: TestEngine) async throws {
        try await TestApp.withApp(engine) { client, _ in
            let email = "o'brien+x@example.com"
            let password = "Robert'); DROP TABLE users;-- 42x"
            let tokens = try await client.registerAndLogin(email: email, password: password)
            let me = try await client.get("/auth/me", bearer: try #require(tokens["access_token"] as? String))
            #expect((me.json["user"] as? [String: Any])?["email"] as? String == email)
            let wrong = try await client.post(
                "/auth/login", ["email": "' OR '1'='1@example.com", "password": "' OR '1'='1"])
            #expect(wrong.status == .unauthorized)
        }
    }

    @Test(arguments: TestEngine.available)
    func failedLoginsPerAccountAreRateLimited(engine: TestEngine) async throws {
        try await TestApp.withApp(engine) { client, app in
            _ = try await client.registerAndLogin(email: "erin@example.com")
            for _ in 0..<5 {
                let failed = try await client.post(
                    "/auth/login", ["email": "erin@example.com", "password": "wrong-password-000"])
                #expect(failed.status == .unauthorized)
            }
            let limited = try await client.post("/auth/login", ["email": "erin@example.com", "password": password])
            #expect(limited.status == .tooManyRequests)
            #expect(limited.errorCode == "rate_limited")
            let retryAfter = try #require(limited.headers[.retryAfter].flatMap(Int.init))
            #expect(retryAfter > 0 && retryAfter <= 60)
            app.clock.advance(TimeInterval(retryAfter))
            #expect(
                try await client.post("/auth/login", ["email": "erin@example.com", "password": password]).status == .ok)
        }
    }

    @Test func requestsPerIPAreRateLimited() async throws {
        var configuration = TestApp.configuration()
        configuration.limits.perIP = .init(capacity: 3, window: .seconds(60))
        try await TestApp.withApp(.sqlite, setup: .live, configuration: configuration) { client, _ in
            var statuses: [HTTPResponse.Status] = []
            for index in 0..<4 {
                let response = try await client.post(
                    "/auth/login", ["email": "u\(index)@example.com", "password": "whatever-123456"])
                statuses.append(response.status)
            }
            #expect(statuses == [.unauthorized, .unauthorized, .unauthorized, .tooManyRequests])
        }
    }

    @Test func boundTokensAreRefusedAsBearer() async throws {
        try await TestApp.withApp(.sqlite) { client, app in
            _ = try await client.registerAndLogin(email: "frank@example.com")
            let member = try #require(
                try await MemberRepository(store: app.components.store).find(email: "frank@example.com"))
            let session = try await SessionRepository(store: app.components.store).create(
                memberID: member.id, dpopJKT: "0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I", refreshTokenHash: "x",
                refreshExpiresAt: Date().addingTimeInterval(60), sessionExpiresAt: Date().addingTimeInterval(60),
                now: Date()
            )
            let tokens = TokenService(configuration: .init(), keys: app.components.signingKeys)
            let bound = try await tokens.issueAccessToken(
                memberID: member.id, sessionID: session.id, boundJKT: session.dpopJKT, now: Date()
            )
            let response = try await client.get("/auth/me", bearer: bound)
            #expect(response.status == .unauthorized)
            #expect(response.errorCode == "invalid_token")
        }
    }

    @Test func forgedAndExpiredTokensAreRefused() async throws {
        try await TestApp.withApp(.sqlite) { client, app in
            let tokens = try await client.registerAndLogin(email: "gina@example.com")
            let access = try #require(tokens["access_token"] as? String)
            var parts = access.split(separator: ".").map(String.init)
            // Flip a character of the signature.
            parts[2] = String(parts[2].reversed())
            #expect(try await client.get("/auth/me", bearer: parts.joined(separator: ".")).status == .unauthorized)
            // A token signed by another key.
            let member = try #require(
                try await MemberRepository(store: app.components.store).find(email: "gina@example.com"))
            let foreign = TokenService(configuration: .init(), keys: try await TokenSigningKeys.ephemeral())
            let forged = try await foreign.issueAccessToken(
                memberID: member.id, sessionID: UUID(), boundJKT: nil, now: Date())
            #expect(try await client.get("/auth/me", bearer: forged).status == .unauthorized)
            // A correctly signed but expired token.
            let own = TokenService(configuration: .init(), keys: app.components.signingKeys)
            let expired = try await own.issueAccessToken(
                memberID: member.id, sessionID: UUID(), boundJKT: nil, now: Date().addingTimeInterval(-3600))
            #expect(try await client.get("/auth/me", bearer: expired).status == .unauthorized)
            #expect(try await client.get("/auth/me", bearer: "not.a.jwt").status == .unauthorized)
            #expect(
                try await client.get("/auth/me", headers: [.authorization: "Basic Zm9vOmJhcg=="]).status
                    == .unauthorized)
            #expect(try await client.get("/auth/me").status == .unauthorized)
        }
    }
}
