// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Logging
import NIOHTTP1
import Testing
import VettIDClient
import VettIDCrypto
import VettIDMessaging
import VettIDTestSupport

@testable import VettIDServer

/// Issue 18: the member portal end to end over real HTTP on loopback, as a browser without JavaScript uses it:
/// register, sign in, invite a device and enroll it with the SDK from the page's link, see it, deploy, revoke it
/// (its next vault authentication is refused), revoke a NATS token, read the security events, sign out. Forms
/// posted without their CSRF token, with another session's token or with a forged session cookie change nothing.
@Suite(.enabled(if: NATSLive.isAvailable, "nats-server is not installed"), .timeLimit(.minutes(3)))
struct PortalLiveTests {
    static let developmentToken = "portal-live-development-token-0123456789"
    static let password = "vivid-Otter-parsley-42"

    static func configure(_ configuration: inout ServerConfiguration) {
        configuration.gate.developmentTokens = [developmentToken]
    }

    /// Registers and signs in `email` through the forms; returns the dashboard.
    static func signedIn(_ browser: PortalBrowser, email: String) async throws -> PortalBrowser.Page {
        let form = try await browser.get("/portal/register")
        let registered = try await browser.post(
            "/portal/register",
            [("csrf", form.csrf ?? ""), ("email", email), ("password", password), ("first_name", "Ada")])
        #expect(registered.status == 303)
        #expect(registered.location == "/portal/sign-in?done=registered")
        let signIn = try await browser.get(try #require(registered.location))
        #expect(signIn.html.contains("Your account is ready. Sign in."))
        let done = try await browser.post(
            "/portal/sign-in", [("csrf", signIn.csrf ?? ""), ("email", email), ("password", password)])
        #expect(done.status == 303)
        #expect(done.location == "/portal")
        return try await browser.get("/portal")
    }

    @Test func aMemberInvitesEnrollsDeploysAndRevokesThroughThePortal() async throws {
        try await NATSLive.with(tls: true, configure: Self.configure) { live in
            let browser = PortalBrowser(baseURL: live.server.baseURL)

            // Registration: a weak password is explained next to the field, and nothing is created.
            let registerForm = try await browser.get("/portal/register")
            let weak = try await browser.post(
                "/portal/register",
                [("csrf", registerForm.csrf ?? ""), ("email", "portal@example.com"), ("password", "password1234")])
            #expect(weak.status == 400)
            #expect(weak.html.contains(#"id="password-error""#))
            #expect(weak.html.contains(#"aria-describedby="password-hint password-error""#))
            #expect(weak.html.contains("Choose a stronger password."))
            #expect(weak.html.contains(#"value="portal@example.com""#), "what was typed stays in the form")

            let dashboard = try await Self.signedIn(browser, email: "portal@example.com")
            #expect(dashboard.status == 200)
            #expect(dashboard.first(#"id="vault-status" data-status="([a-z_]+)""#) == "not_enrolled")
            let cookie = try #require(browser.setCookies.first { $0.hasPrefix("vettid-portal=") })
            #expect(
                cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict") && cookie.contains("Path=/portal"))
            #expect(!cookie.contains("Secure"), "plain HTTP on loopback: a Secure cookie would be dropped")
            #expect(dashboard.headers.first(name: "content-security-policy") == PortalSecurityHeadersProbe.csp)
            #expect(dashboard.headers.first(name: "x-frame-options") == "DENY")
            #expect(dashboard.headers.first(name: "referrer-policy") == "no-referrer")
            #expect(dashboard.headers.first(name: "cache-control") == "no-store")

            // Invite: the page shows the QR code inline, the code, the link and the expiry; no code in any URL.
            let invitations = try await browser.get("/portal/invitations")
            let created = try await browser.post(
                "/portal/invitations",
                [("csrf", invitations.csrf ?? ""), ("label", "<b>Ada's phone</b>"), ("expires_in_minutes", "60")])
            #expect(created.status == 201)
            let code = try #require(created.text(id: "invitation-code"))
            let linkText = try #require(created.text(id: "invitation-link"))
            #expect(linkText.contains("code=\(code)"))
            #expect(created.html.contains(#"src="data:image/png;base64,iVBORw0KGgo"#))
            #expect(created.html.contains("&lt;b&gt;Ada&#39;s phone&lt;/b&gt;"), "a label is text, never markup")
            #expect(!created.html.contains("<b>Ada"))
            let pending = try await browser.get("/portal/invitations")
            #expect(pending.all(#"<tr (data-invitation)>"#).count == 1)
            #expect(!pending.html.contains(code), "a page reached by GET never holds an invitation code")
            let reference = try #require(pending.first(#"name="invitation" value="([^"]+)""#))
            let shown = try await browser.post(
                "/portal/invitations/show", [("csrf", pending.csrf ?? ""), ("invitation", reference)])
            #expect(shown.status == 200)
            #expect(shown.text(id: "invitation-code") == code)
            let unknownInvitation = try await browser.post(
                "/portal/invitations/show", [("csrf", pending.csrf ?? ""), ("invitation", "AAAAAAAAAAAAAAAAAAAAAA")])
            #expect(unknownInvitation.status == 404)
            let asCode = try await browser.post(
                "/portal/invitations/show", [("csrf", pending.csrf ?? ""), ("invitation", code)])
            #expect(asCode.status == 404, "the code itself is not a reference")

            // Enroll with the SDK from the page's link, as the phone would after scanning the code.
            let store = InMemorySecureStore()
            let vault = try VaultLive.device(
                baseURL: live.server.baseURL, attester: DevelopmentTokenAttester(token: Self.developmentToken),
                store: store)
            let credential = try await vault.enroll(
                invitation: try EnrollmentInvitationLink(parsing: linkText), password: VaultLive.vaultPassword)
            let devices = try await browser.get("/portal/devices")
            let credentialID = credential.package.credentialID
            #expect(devices.all(#"data-credential-id="([^"]+)" data-state="active""#) == [credentialID])
            #expect(devices.html.contains("Command-line tool"))
            #expect(try await browser.get("/portal/invitations").all(#"<tr (data-invitation)>"#).isEmpty)

            // Deploy.
            let beforeDeploy = try await browser.get("/portal")
            #expect(beforeDeploy.first(#"id="vault-status" data-status="([a-z_]+)""#) == "enrolled")
            #expect(beforeDeploy.html.contains(#"id="deploy-form""#))
            let deployed = try await browser.post("/portal/vault/deploy", [("csrf", beforeDeploy.csrf ?? "")])
            #expect(deployed.status == 303)
            let afterDeploy = try await browser.get(try #require(deployed.location))
            #expect(afterDeploy.first(#"id="vault-status" data-status="([a-z_]+)""#) == "active")
            #expect(afterDeploy.html.contains("Your vault is deployed."))
            #expect(afterDeploy.text(id: "keys-remaining").flatMap(Int.init) ?? 0 > 0)

            // Messaging: a token the device holds is listed and revoked from the portal.
            _ = try await vault.authenticate(password: VaultLive.vaultPassword)
            _ = try await vault.createNatsAccount()
            let token = try await vault.createNatsToken(clientType: .app, deviceID: "portal-phone")
            let messaging = try await browser.get("/portal/messaging")
            #expect(messaging.all(#"data-token-id="([^"]+)""#) == [token.tokenID])
            #expect(messaging.html.contains(#"id="nats-account""#) && messaging.html.contains("OwnerSpace."))
            let tokenRevoked = try await browser.post(
                "/portal/messaging/revoke", [("csrf", messaging.csrf ?? ""), ("token_id", token.tokenID)])
            #expect(tokenRevoked.status == 303)
            let tokenAgain = try await browser.post(
                "/portal/messaging/revoke", [("csrf", messaging.csrf ?? ""), ("token_id", token.tokenID)])
            #expect(tokenAgain.status == 303, "a repeated revocation re-sends the update and records no second event")
            #expect(try await browser.get("/portal/messaging").all(#"data-token-id="([^"]+)""#).isEmpty)

            // Revoke the device: the row says so and the SDK's next vault authentication is refused.
            let revoked = try await browser.post(
                "/portal/devices/revoke", [("csrf", devices.csrf ?? ""), ("credential_id", credentialID)])
            #expect(revoked.status == 303)
            let afterRevoke = try await browser.get(try #require(revoked.location))
            #expect(afterRevoke.all(#"data-credential-id="([^"]+)" data-state="revoked""#) == [credentialID])
            #expect(afterRevoke.html.contains("The device is revoked."))
            let again = try await browser.post(
                "/portal/devices/revoke", [("csrf", devices.csrf ?? ""), ("credential_id", credentialID)])
            #expect(again.status == 303, "revoking twice changes nothing (and records no second event)")
            let unknown = try await browser.post(
                "/portal/devices/revoke", [("csrf", devices.csrf ?? ""), ("credential_id", "cr_unknown")])
            #expect(unknown.status == 404)
            #expect(unknown.html.contains("That is no longer there."))
            let refused = await VaultLive.error { try await vault.authenticate(password: VaultLive.vaultPassword) }
            #expect(refused != nil, "a revoked device must not open the vault")
            #expect(
                refused?.status == 404, "a revoked credential is refused as unknown: \(String(describing: refused))")

            // Security events, newest first, with the client.
            let security = try await browser.get("/portal/security")
            let kinds = security.all(#"<tr data-kind="([a-z_]+)""#)
            #expect(
                kinds == [
                    "device_revoked", "nats_token_revoked", "vault_deployed", "device_enrolled", "invitation_created",
                    "login", "registered",
                ], "\(kinds)")
            #expect(security.html.contains("PortalBrowser/1 (VettID tests)"))

            // Sign out: the cookie is cleared, and the old cookie no longer opens a page.
            let oldCookie = try #require(browser.cookies["vettid-portal"])
            let signedOut = try await browser.post("/portal/sign-out", [("csrf", security.csrf ?? "")])
            #expect(signedOut.location == "/portal/sign-in?done=signed-out")
            #expect(browser.cookies["vettid-portal"] == nil)
            browser.setCookie("vettid-portal", oldCookie)
            let replayed = try await browser.get("/portal/devices")
            #expect(replayed.status == 303)
            #expect(replayed.location == "/portal/sign-in")
        }
    }
}

/// Forged and malformed requests against the portal, on SQLite and on PostgreSQL: each is refused with a page that
/// says so, and changes nothing.
@Suite(.timeLimit(.minutes(2)))
struct PortalForgeryTests {
    static let engines = AuthManagerLiveTests.engines

    /// How many invitations `email`'s member has, read from the store (the portal is not trusted to count).
    static func invitationCount(_ server: LiveServer, _ email: String) async throws -> Int {
        let member = try #require(try await server.components.auth.members.find(email: email))
        return try await server.components.invitations.list(memberID: member.id).count
    }

    @Test(arguments: engines) func formsWithoutTheirCSRFTokenOrWithAnotherSessionsAreRefused(postgres: Bool)
        async throws
    {
        try await LiveServer.withServer(postgres: postgres) { server in
            let alice = PortalBrowser(baseURL: server.baseURL)
            let mallory = PortalBrowser(baseURL: server.baseURL)
            let page = try await PortalLiveTests.signedIn(alice, email: "alice-\(postgres)@example.com")
            let malloryPage = try await PortalLiveTests.signedIn(mallory, email: "mallory-\(postgres)@example.com")
            let fields = [("label", "forged"), ("expires_in_minutes", "60")]

            let missing = try await alice.post("/portal/invitations", fields)
            #expect(missing.status == 403)
            #expect(missing.html.contains("This form has expired"))
            let wrong = try await alice.post("/portal/invitations", [("csrf", "AAAA")] + fields)
            #expect(wrong.status == 403)
            let others = try await alice.post("/portal/invitations", [("csrf", malloryPage.csrf ?? "")] + fields)
            #expect(others.status == 403, "a token is bound to its session")
            #expect(try await Self.invitationCount(server, "alice-\(postgres)@example.com") == 0)

            // The same form with its own token goes through: the refusals above were about the token alone.
            let genuine = try await alice.post("/portal/invitations", [("csrf", page.csrf ?? "")] + fields)
            #expect(genuine.status == 201)
            #expect(try await Self.invitationCount(server, "alice-\(postgres)@example.com") == 1)

            // Signing out needs the token too (a cross-site sign-out is a nuisance worth refusing).
            #expect(try await alice.post("/portal/sign-out", []).status == 403)
            #expect(try await alice.get("/portal").status == 200)
        }
    }

    @Test(arguments: engines) func signInFormsAreBoundToTheBrowsersOwnCookie(postgres: Bool) async throws {
        try await LiveServer.withServer(postgres: postgres) { server in
            let visitor = PortalBrowser(baseURL: server.baseURL)
            let attacker = PortalBrowser(baseURL: server.baseURL)
            let email = "login-csrf-\(postgres)@example.com"
            _ = try await PortalLiveTests.signedIn(PortalBrowser(baseURL: server.baseURL), email: email)
            let form = try await visitor.get("/portal/sign-in")
            let foreign = try await attacker.get("/portal/sign-in")
            // The attacker's token, posted from the visitor's browser: refused (login CSRF).
            let refused = try await visitor.post(
                "/portal/sign-in",
                [("csrf", foreign.csrf ?? ""), ("email", email), ("password", PortalLiveTests.password)])
            #expect(refused.status == 403)
            #expect(visitor.cookies["vettid-portal"] == nil)
            // Without the pre-session cookie no token matches either.
            visitor.setCookie("portal-csrf", nil)
            let cookieless = try await visitor.post(
                "/portal/sign-in",
                [("csrf", form.csrf ?? ""), ("email", email), ("password", PortalLiveTests.password)])
            #expect(cookieless.status == 403)
            #expect(visitor.cookies["vettid-portal"] == nil)
        }
    }

    @Test func aForgedOrTamperedSessionCookieOpensNothing() async throws {
        try await LiveServer.withServer { server in
            let browser = PortalBrowser(baseURL: server.baseURL)
            _ = try await PortalLiveTests.signedIn(browser, email: "cookie@example.com")
            let genuine = try #require(browser.cookies["vettid-portal"])
            var bytes = Array(genuine.utf8)
            bytes[3] = bytes[3] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
            for forged in [
                String(decoding: bytes, as: UTF8.self), "", "x.y", genuine + "A", String(repeating: "A", count: 500),
            ] {
                browser.setCookie("vettid-portal", forged)
                let page = try await browser.get("/portal/devices")
                #expect(page.status == 303, "\(forged.prefix(20))")
                #expect(page.location == "/portal/sign-in")
            }
            // The portal's session lasts 12 hours, not the API's 90 days.
            let named0 = try #require(Base64URL.decode(genuine.split(separator: ".")[0]))
            let portalSession = try #require(
                try await server.components.auth.sessions.find(
                    id: UUID(uuid: named0[0..<16].withUnsafeBytes { $0.loadUnaligned(as: uuid_t.self) })))
            #expect(portalSession.expiresAt <= Date().addingTimeInterval(12 * 3600 + 5))
            // A second cookie of the same name (planted for another path or by a sibling domain): neither is trusted.
            browser.setCookie("vettid-portal", genuine)
            let planted = try await browser.get(
                "/portal/devices", headers: ["cookie": "vettid-portal=\(genuine)"])
            #expect(planted.status == 303, "two vettid-portal cookies")
            // A cookie for a session that was revoked elsewhere (the API's logout of that session) opens nothing.
            browser.setCookie("vettid-portal", genuine)
            #expect(try await browser.get("/portal/devices").status == 200)
            // The cookie names its session in its first 16 bytes.
            let named = try #require(Base64URL.decode(genuine.split(separator: ".")[0]))
            let sessionID = UUID(uuid: named[0..<16].withUnsafeBytes { $0.loadUnaligned(as: uuid_t.self) })
            let session = try #require(try await server.components.auth.sessions.find(id: sessionID))
            let member = try #require(try await server.components.auth.members.find(id: session.memberID))
            try await server.components.auth.logout(
                .init(member: member, session: session), origin: .none, logger: .init(label: "t"))
            #expect(try await browser.get("/portal/devices").status == 303)
        }
    }

    @Test func malformedFormsAreRefusedWithAPage() async throws {
        try await LiveServer.withServer { server in
            let browser = PortalBrowser(baseURL: server.baseURL)
            let page = try await PortalLiveTests.signedIn(browser, email: "forms@example.com")
            let csrf = page.csrf ?? ""
            let json = try await browser.send(
                .POST, "/portal/invitations", body: #"{"csrf":"\#(csrf)"}"#,
                headers: ["content-type": "application/json"])
            #expect(json.status == 415)
            #expect(json.headers.first(name: "content-type") == "text/html; charset=utf-8")
            let broken = try await browser.send(
                .POST, "/portal/invitations", body: "csrf=\(csrf)&label=%zz",
                headers: ["content-type": "application/x-www-form-urlencoded"])
            #expect(broken.status == 400)
            let huge = try await browser.post(
                "/portal/invitations", [("csrf", csrf), ("label", String(repeating: "a", count: 20_000))])
            #expect(huge.status == 413)
            let lifetime = try await browser.post(
                "/portal/invitations", [("csrf", csrf), ("label", "x"), ("expires_in_minutes", "99999")])
            #expect(lifetime.status == 400)
            #expect(lifetime.html.contains(#"id="expires_in_minutes-error""#))
            let label = try await browser.post(
                "/portal/invitations",
                [("csrf", csrf), ("label", String(repeating: "b", count: 101)), ("expires_in_minutes", "60")])
            #expect(label.status == 400)
            #expect(label.html.contains(#"id="label-error""#))
            #expect(try await PortalForgeryTests.invitationCount(server, "forms@example.com") == 0)
        }
    }

    /// Strangers who fail sign-ins for an email until the account-wide ceiling keep out other browsers, not one the
    /// member signed in with before (its signed known-browser cookie names that member, and only that member).
    @Test func aKnownBrowserIsNotLockedOutByStrangersFailures() async throws {
        try await LiveServer.withServer(configure: {
            $0.limits.failedLoginsPerAccount = .init(capacity: 100, window: .seconds(300))
            $0.limits.failedLoginsPerAccountCeiling = .init(capacity: 3, window: .seconds(300))
        }) { server in
            let member = PortalBrowser(baseURL: server.baseURL)
            let page = try await PortalLiveTests.signedIn(member, email: "known@example.com")
            let known = try #require(member.cookies["vettid-browser"])
            #expect(try await member.post("/portal/sign-out", [("csrf", page.csrf ?? "")]).status == 303)
            #expect(member.cookies["vettid-browser"] != nil, "signing out keeps the browser known")

            func signIn(_ browser: PortalBrowser, _ email: String, _ password: String) async throws -> Int {
                let form = try await browser.get("/portal/sign-in")
                return try await browser.post(
                    "/portal/sign-in", [("csrf", form.csrf ?? ""), ("email", email), ("password", password)]
                ).status
            }
            let stranger = PortalBrowser(baseURL: server.baseURL)
            for _ in 0..<3 { #expect(try await signIn(stranger, "known@example.com", "guess-\(UUID())") == 401) }
            #expect(try await signIn(stranger, "known@example.com", PortalLiveTests.password) == 429)
            #expect(
                try await signIn(PortalBrowser(baseURL: server.baseURL), "known@example.com", PortalLiveTests.password)
                    == 429)
            #expect(try await signIn(member, "known@example.com", PortalLiveTests.password) == 303)

            // The cookie names its member: it exempts nobody else's sign-in, and a forged one exempts nobody.
            _ = try await PortalLiveTests.signedIn(PortalBrowser(baseURL: server.baseURL), email: "other@example.com")
            let other = PortalBrowser(baseURL: server.baseURL)
            for _ in 0..<3 { _ = try await signIn(other, "other@example.com", "guess-\(UUID())") }
            let borrowed = PortalBrowser(baseURL: server.baseURL)
            borrowed.setCookie("vettid-browser", known)
            #expect(try await signIn(borrowed, "other@example.com", PortalLiveTests.password) == 429)
            let forged = PortalBrowser(baseURL: server.baseURL)
            let parts = known.split(separator: ".").map(String.init)
            let flipped = (parts[1].first == "A" ? "B" : "A") + parts[1].dropFirst()
            forged.setCookie("vettid-browser", parts[0] + "." + flipped)
            #expect(try await signIn(forged, "known@example.com", PortalLiveTests.password) == 429)
        }
    }

    @Test func signInIsRateLimitedLikeTheAPI() async throws {
        try await LiveServer.withServer(configure: {
            $0.limits.failedLoginsPerAccount = .init(capacity: 2, window: .seconds(300))
        }) { server in
            let browser = PortalBrowser(baseURL: server.baseURL)
            _ = try await PortalLiveTests.signedIn(PortalBrowser(baseURL: server.baseURL), email: "limit@example.com")
            var statuses: [Int] = []
            for _ in 0..<3 {
                let form = try await browser.get("/portal/sign-in")
                let answer = try await browser.post(
                    "/portal/sign-in",
                    [("csrf", form.csrf ?? ""), ("email", "limit@example.com"), ("password", "not-it-\(UUID())")])
                statuses.append(answer.status)
                if answer.status == 401 {
                    #expect(answer.html.contains("The email address or password is not right."))
                    #expect(answer.html.contains(#"id="password-error""#))
                }
                if answer.status == 429 { #expect(answer.html.contains("Too many attempts")) }
            }
            #expect(statuses == [401, 401, 429])
        }
    }
}

/// The policy the portal promises, spelled out independently of the server's constant.
enum PortalSecurityHeadersProbe {
    static let csp =
        "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
}
