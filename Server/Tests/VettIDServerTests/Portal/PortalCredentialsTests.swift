// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import Foundation
import Testing
import VettIDCrypto

@testable import VettIDServer

/// The portal's CSRF tokens and signed session cookie: what verifies, and that every forgery does not.
struct PortalCredentialsTests {
    let csrf = PortalCSRF(key: SymmetricKey(size: .bits256))
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func aCSRFTokenVerifiesOnlyForItsBinding() {
        let session = UUID()
        let token = csrf.token(for: .session(session))
        #expect(csrf.isValid(token, for: .session(session)))
        #expect(!csrf.isValid(token, for: .session(UUID())), "another session")
        #expect(!csrf.isValid(token, for: .anonymous(session.uuidString.lowercased())), "another kind of binding")
        #expect(!PortalCSRF(key: SymmetricKey(size: .bits256)).isValid(token, for: .session(session)), "another key")
        let anonymous = csrf.token(for: .anonymous("cookie-value"))
        #expect(csrf.isValid(anonymous, for: .anonymous("cookie-value")))
        #expect(!csrf.isValid(anonymous, for: .anonymous("cookie-valuf")))
        for forged in [nil, "", "AAAA", String(token.dropLast()), token + "A", String(repeating: "A", count: 5000)] {
            #expect(!csrf.isValid(forged, for: .session(session)), "\(String(describing: forged?.prefix(10)))")
        }
        var flipped = Array(token.utf8)
        flipped[0] = flipped[0] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        #expect(!csrf.isValid(String(decoding: flipped, as: UTF8.self), for: .session(session)))
    }

    @Test func aSessionCookieOpensUntilItExpiresAndNotWhenForged() throws {
        let key = SymmetricKey(size: .bits256)
        let cookies = PortalSessionCookie(key: key, secure: true)
        let session = UUID()
        let value = cookies.value(id: session, expiresAt: now.addingTimeInterval(3600))
        let opened = try #require(cookies.open(value, now: now))
        #expect(opened.id == session)
        #expect(opened.expiresAt == now.addingTimeInterval(3600))
        #expect(cookies.open(value, now: now.addingTimeInterval(3600)) == nil, "expired")
        #expect(PortalSessionCookie(key: SymmetricKey(size: .bits256), secure: true).open(value, now: now) == nil)
        let parts = value.split(separator: ".").map(String.init)
        // Another session id or a later expiry under the same MAC.
        var body = try #require(Base64URL.decode(parts[0]))
        body[23] &+= 1
        #expect(cookies.open(Base64URL.encode(body) + "." + parts[1], now: now) == nil)
        for forged in [
            "", ".", parts[0], parts[0] + ".", "." + parts[1], value + ".x", String(repeating: "A", count: 200),
        ] {
            #expect(cookies.open(forged, now: now) == nil, "\(forged.prefix(12))")
        }
        #expect(cookies.open(nil, now: now) == nil)
    }

    @Test func cookiesAreSecureExceptOverPlainHTTPOnLoopback() {
        #expect(!PortalController.needsSecureCookies(origin: "http://127.0.0.1:8080"))
        #expect(!PortalController.needsSecureCookies(origin: "http://localhost:8080"))
        #expect(!PortalController.needsSecureCookies(origin: "http://[::1]:8080"))
        #expect(PortalController.needsSecureCookies(origin: "https://127.0.0.1:8443"))
        #expect(PortalController.needsSecureCookies(origin: "https://vault.example.com"))
        #expect(PortalController.needsSecureCookies(origin: "http://vault.example.com"))
        #expect(PortalController.needsSecureCookies(origin: "http://127.example.com"))
        #expect(PortalController.needsSecureCookies(origin: "http://127.0.0.1.example.com"))
        #expect(!PortalController.needsSecureCookies(origin: "http://127.1.2.3:80"))
        #expect(PortalController.needsSecureCookies(origin: "not a url"))
        let https = PortalSessionCookie(key: SymmetricKey(size: .bits256), secure: true)
        #expect(https.name == "__Host-vettid-portal" && https.csrfName == "__Host-portal-csrf")
        let secure = https.setting(https.name, "v", maxAge: 5)
        #expect(secure == "__Host-vettid-portal=v; Max-Age=5; Path=/; HttpOnly; Secure; SameSite=Strict")
        let http = PortalSessionCookie(key: SymmetricKey(size: .bits256), secure: false)
        #expect(http.name == "vettid-portal" && http.csrfName == "portal-csrf")
        let loopback = PortalSessionCookie(key: SymmetricKey(size: .bits256), secure: false).setting(
            "n", "v", maxAge: 5)
        #expect(loopback == "n=v; Max-Age=5; Path=/portal; HttpOnly; SameSite=Strict")
    }
}
