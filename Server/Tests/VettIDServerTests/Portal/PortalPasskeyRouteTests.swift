// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing
import VettIDAttestation
import VettIDCrypto

@testable import VettIDServer

/// The portal's passkey routes through the whole application: the CSRF token they need, who may call them, the
/// Content-Security-Policy of the pages that load the passkey script, and a member's forms reaching only their own
/// passkeys. (The ceremonies themselves run in a real browser: scripts/portal-browser-test.)
struct PortalPasskeyRouteTests {
    static let password = "vivid-Otter-parsley-42"

    @Test(arguments: TestEngine.available)
    func onlyPagesWithACeremonyLoadTheScriptAndTheirPolicyAllowsNoMore(_ engine: TestEngine) async throws {
        try await TestApp.withApp(engine) { client, _ in
            var browser = PortalTestBrowser(client: client)
            let signIn = try await browser.get("/portal/sign-in")
            #expect(signIn.status == .ok)
            Self.expectScriptPage(signIn, "sign-in")
            #expect(signIn.html.contains(#"autocomplete="username webauthn""#))
            #expect(signIn.html.contains(#"id="passkey-sign-in" class="card" aria-labelledby"#))
            #expect(signIn.html.contains("hidden>"), "the passkey button is hidden until the script shows it")

            try await browser.signIn(email: "csp@example.com", password: Self.password, register: true)
            let passkeys = try await browser.get("/portal/passkeys")
            #expect(passkeys.status == .ok)
            Self.expectScriptPage(passkeys, "passkeys")
            #expect(passkeys.html.contains(#"id="no-passkeys""#))
            #expect(passkeys.html.contains(#"<a href="/portal/passkeys" aria-current="page">Passkeys</a>"#))

            for path in ["/portal", "/portal/devices", "/portal/invitations", "/portal/security"] {
                let page = try await browser.get(path)
                #expect(page.status == .ok, "\(path)")
                let policy = page.response.headers[.contentSecurityPolicy] ?? ""
                #expect(policy == PortalSecurityHeaders.contentSecurityPolicy, "\(path): \(policy)")
                #expect(!policy.contains("script-src") && !page.html.contains("<script"), "\(path) has a script")
            }

            let script = try await client.execute(uri: PortalPasskeyScript.path, method: .get)
            #expect(script.status == .ok)
            #expect(script.headers[.contentType] == "text/javascript; charset=utf-8")
            #expect(script.headers[.cacheControl] == "public, max-age=31536000, immutable")
            #expect(String(buffer: script.body) == PortalPasskeyScript.source)
            #expect(PortalPasskeyScript.path.hasPrefix("/portal/static/passkeys-"))
            let stale = try await client.execute(uri: "/portal/static/passkeys-0000000000000000.js", method: .get)
            #expect(stale.status == .notFound, "only the current script's path is served")
        }
    }

    /// The pages' CSP: the script from this origin, `fetch` to it, and nothing inline or evaluated.
    static func expectScriptPage(_ page: PortalTestBrowser.Page, _ name: String) {
        let policy = page.response.headers[.contentSecurityPolicy] ?? ""
        #expect(policy == PortalSecurityHeaders.scriptContentSecurityPolicy, "\(name): \(policy)")
        let directives = Dictionary(
            policy.split(separator: ";").map {
                let parts = $0.trimmingCharacters(in: .whitespaces).split(separator: " ", maxSplits: 1)
                return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
            }, uniquingKeysWith: { first, _ in first })
        #expect(directives["script-src"] == "'self'", "\(name)")
        #expect(directives["connect-src"] == "'self'", "\(name)")
        #expect(directives["default-src"] == "'none'", "\(name)")
        #expect(directives["require-trusted-types-for"] == "'script'", "\(name)")
        #expect(!policy.contains("unsafe") && !policy.contains("*"), "\(name)")
        #expect(page.html.contains(#"<script src="\#(PortalPasskeyScript.path)" defer></script>"#), "\(name)")
        #expect(page.html.components(separatedBy: "<script").count == 2, "\(name): one script element")
        #expect(!page.html.contains(" onclick=") && !page.html.contains(" onload="), "\(name): an inline handler")
    }

    @Test(arguments: TestEngine.available)
    func everyPasskeyFormNeedsItsCSRFToken(_ engine: TestEngine) async throws {
        try await TestApp.withApp(engine) { client, _ in
            var browser = PortalTestBrowser(client: client)
            _ = try await browser.get("/portal/sign-in")
            // A visitor's sign-in options: refused without the token or with a wrong one, answered with it.
            for form in [[:], ["csrf": String(repeating: "A", count: 43)]] {
                let refused = try await browser.post("/portal/passkeys/sign-in/options", form)
                #expect(refused.status == .forbidden, "\(form)")
                #expect(refused.response.headers[.contentType]?.hasPrefix("text/html") == true)
            }
            #expect(try await browser.post("/portal/passkeys/sign-in", ["credential": "{}"]).status == .forbidden)
            let options = try await browser.post("/portal/passkeys/sign-in/options", ["csrf": browser.csrf])
            #expect(options.status == .ok)
            #expect(options.response.headers[.contentType] == "application/json")
            #expect(options.response.headers[.cacheControl] == "no-store")
            let request = try #require(options.json)
            #expect(request["rpId"] as? String == "localhost")
            #expect((request["challenge"] as? String)?.count == 43)
            #expect((request["allowCredentials"] as? [Any])?.isEmpty ?? true, "a discoverable sign-in")
            let named = try await browser.post(
                "/portal/passkeys/sign-in/options", ["csrf": browser.csrf, "email": "nobody@example.com"])
            #expect((named.json?["allowCredentials"] as? [Any])?.count == 1, "an email: a list, made up if need be")

            // An answer that is not a passkey's: the sign-in page again, 400, and no session.
            let garbled = try await browser.post(
                "/portal/passkeys/sign-in", ["csrf": browser.csrf, "credential": #"{"id":"x"}"#])
            #expect(garbled.status == .badRequest)
            #expect(garbled.html.contains(#"class="form-error" role="alert""#))
            #expect(browser.cookies["vettid-portal"] == nil)

            try await browser.signIn(email: "csrf@example.com", password: Self.password, register: true)
            for path in [
                "/portal/passkeys/options", "/portal/passkeys", "/portal/passkeys/rename", "/portal/passkeys/remove",
            ] {
                let refused = try await browser.post(path, ["id": "AAAA", "name": "x", "credential": "{}"])
                #expect(refused.status == .forbidden, "\(path) without csrf")
            }
            let creation = try await browser.post("/portal/passkeys/options", ["csrf": browser.csrf])
            #expect(creation.status == .ok)
            let json = try #require(creation.json)
            #expect((json["rp"] as? [String: Any])?["id"] as? String == "localhost")
            #expect((json["user"] as? [String: Any])?["name"] as? String == "csrf@example.com")
            #expect((json["authenticatorSelection"] as? [String: Any])?["residentKey"] as? String == "required")
        }
    }

    @Test(arguments: TestEngine.available)
    func membersPasskeyRoutesSendAVisitorToSignIn(_ engine: TestEngine) async throws {
        try await TestApp.withApp(engine) { client, _ in
            var browser = PortalTestBrowser(client: client)
            _ = try await browser.get("/portal/sign-in")
            let page = try await browser.get("/portal/passkeys")
            #expect(page.status == .seeOther && page.response.headers[.location] == "/portal/sign-in")
            for path in [
                "/portal/passkeys/options", "/portal/passkeys", "/portal/passkeys/rename", "/portal/passkeys/remove",
            ] {
                // Even with the visitor's valid token: the routes are a member's.
                let refused = try await browser.post(path, ["csrf": browser.csrf, "id": "AAAA", "name": "x"])
                #expect(refused.status == .seeOther, "\(path)")
                #expect(refused.response.headers[.location] == "/portal/sign-in", "\(path)")
                #expect(refused.response.headers[.contentType] != "application/json", "\(path)")
            }
        }
    }

    @Test(arguments: TestEngine.available)
    func aMemberCannotRenameOrRemoveAnotherMembersPasskey(_ engine: TestEngine) async throws {
        try await TestApp.withApp(engine) { client, app in
            var owner = PortalTestBrowser(client: client)
            try await owner.signIn(email: "owner@example.com", password: Self.password, register: true)
            let ownerMember = try #require(try await app.components.auth.members.find(email: "owner@example.com"))
            let record = try await Self.insertPasskey(for: ownerMember.id, named: "Owner's key", app: app)

            var other = PortalTestBrowser(client: client)
            try await other.signIn(email: "other@example.com", password: Self.password, register: true)
            let listed = try await other.get("/portal/passkeys")
            #expect(!listed.html.contains(record.id), "another member's passkey is not listed")
            let renamed = try await other.post(
                "/portal/passkeys/rename", ["csrf": other.csrf, "id": record.id, "name": "Mine now"])
            #expect(renamed.status == .notFound)
            #expect(renamed.html.contains(#"class="form-error" role="alert""#))
            let removed = try await other.post("/portal/passkeys/remove", ["csrf": other.csrf, "id": record.id])
            #expect(removed.status == .notFound)
            let kept = try await app.components.passkeys.repository.list(userID: ownerMember.id)
            #expect(kept.map(\.name) == ["Owner's key"], "the owner's passkey is unchanged")

            // The owner's own forms work, and show as security events.
            let page = try await owner.get("/portal/passkeys")
            #expect(page.html.contains(#"data-passkey-id="\#(record.id)" data-sync="synced""#))
            #expect(page.html.contains("Synced (backed up)"))
            let ownRename = try await owner.post(
                "/portal/passkeys/rename", ["csrf": owner.csrf, "id": record.id, "name": "Laptop"])
            #expect(ownRename.status == .seeOther)
            #expect(ownRename.response.headers[.location] == "/portal/passkeys?done=passkey-renamed")
            let tooLong = try await owner.post(
                "/portal/passkeys/rename",
                ["csrf": owner.csrf, "id": record.id, "name": String(repeating: "n", count: 65)])
            #expect(tooLong.status == .badRequest)
            let ownRemove = try await owner.post("/portal/passkeys/remove", ["csrf": owner.csrf, "id": record.id])
            #expect(ownRemove.response.headers[.location] == "/portal/passkeys?done=passkey-removed")
            #expect(try await app.components.passkeys.repository.list(userID: ownerMember.id).isEmpty)
            let security = try await owner.get("/portal/security")
            #expect(security.html.contains(#"data-kind="passkey_renamed""#))
            #expect(security.html.contains(#"data-kind="passkey_removed""#))
        }
    }

    /// A passkey of `userID` straight into the store (its key is never used: nobody signs in with it here).
    static func insertPasskey(for userID: UUID, named name: String, app: TestApp) async throws -> PasskeyRecord {
        let repository = app.components.passkeys.repository
        _ = try await repository.userHandle(for: userID)
        let point = Array(P256.Signing.PrivateKey().publicKey.x963Representation)
        let record = PasskeyRecord(
            credentialID: (0..<32).map { _ in UInt8.random(in: 0...255) }, userID: userID,
            publicKey: .p256(x: Array(point[1..<33]), y: Array(point[33...])), signCount: 0, backupEligible: true,
            backupState: true, transports: ["internal"], name: name, attestationFormat: "none",
            createdAtMilliseconds: Int64(Date().timeIntervalSince1970 * 1000), lastUsedAtMilliseconds: nil)
        #expect(try await repository.insert(record))
        return record
    }
}

/// A browser as far as the portal's tests need one: the cookies it was given, and the CSRF token of the last page.
struct PortalTestBrowser {
    struct Page {
        let response: TestResponse
        var status: HTTPResponse.Status { response.status }
        var html: String { String(buffer: response.body) }
        var json: [String: Any]? {
            (try? JSONSerialization.jsonObject(with: Data(response.body.readableBytesView))) as? [String: Any]
        }
    }

    let client: any TestClientProtocol
    private(set) var cookies: [String: String] = [:]
    /// The `csrf` value of the last page that had a form.
    private(set) var csrf = ""

    init(client: any TestClientProtocol) { self.client = client }

    mutating func get(_ path: String) async throws -> Page {
        try await send(path, method: .get, body: nil)
    }

    mutating func post(_ path: String, _ form: [String: String]) async throws -> Page {
        let unreserved = CharacterSet(
            charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
        let encode = { (text: String) in text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? "" }
        let body = form.sorted { $0.key < $1.key }.map { encode($0.key) + "=" + encode($0.value) }.joined(
            separator: "&")
        return try await send(path, method: .post, body: body)
    }

    /// Registers `email` through the API (when `register`) and signs in on the portal's page.
    mutating func signIn(email: String, password: String, register: Bool) async throws {
        if register {
            let registered = try await client.post("/auth/register", ["email": email, "password": password])
            guard registered.status == .created else { throw TestFailure("register: \(registered.status)") }
        }
        _ = try await get("/portal/sign-in")
        let signedIn = try await post("/portal/sign-in", ["email": email, "password": password, "csrf": csrf])
        guard signedIn.status == .seeOther, cookies["vettid-portal"] != nil else {
            throw TestFailure("portal sign-in: \(signedIn.status)")
        }
        _ = try await get("/portal")
    }

    private mutating func send(_ path: String, method: HTTPRequest.Method, body: String?) async throws -> Page {
        var headers: HTTPFields = [:]
        if !cookies.isEmpty {
            headers[.cookie] = cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(
                separator: "; ")
        }
        if body != nil { headers[.contentType] = "application/x-www-form-urlencoded" }
        let response = try await client.execute(
            uri: path, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
        for field in response.headers where field.name == .setCookie {
            let pair = field.value.prefix { $0 != ";" }.split(
                separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard pair.count == 2 else { continue }
            if field.value.contains("Max-Age=0") {
                cookies[String(pair[0])] = nil
            } else {
                cookies[String(pair[0])] = String(pair[1])
            }
        }
        let page = Page(response: response)
        if let range = page.html.range(of: #"name="csrf" value=""#) {
            csrf = String(page.html[range.upperBound...].prefix { $0 != "\"" })
        }
        return page
    }
}
