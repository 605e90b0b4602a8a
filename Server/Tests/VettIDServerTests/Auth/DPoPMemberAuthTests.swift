// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes
import HummingbirdTesting
import Logging
import Testing
import VettIDCore
import VettIDCrypto
import VettIDTestSupport
import VettIDVerification

@testable import VettIDServer

/// DPoP (RFC 9449) on member auth: nonces, binding at login and refresh, the DPoP scheme at resources, and every
/// forged, replayed or mis-bound proof refused.
@Suite struct DPoPMemberAuthTests {
    static let origin = "https://api.vettid.test"
    let password = "vivid-Otter-parsley-42"

    static func configuration() -> ServerConfiguration {
        var configuration = TestApp.configuration()
        configuration.publicURL = origin
        return configuration
    }

    struct Device {
        let signer = SoftwareDPoPSigner()
        var builder: DPoPProofBuilder { DPoPProofBuilder(signer: signer) }
        var thumbprint: String { signer.publicJWK.thumbprint }

        func proof(_ method: String, _ path: String, token: String? = nil, nonce: String?) async throws -> String {
            try await builder.proof(
                method: method, url: DPoPMemberAuthTests.origin + path, accessToken: token, nonce: nonce)
        }
    }

    /// Gets a nonce the way a client does: the first proof without one is answered 400 use_dpop_nonce + DPoP-Nonce.
    func nonce(_ client: some TestClientProtocol, _ device: Device, email: String) async throws -> String {
        let first = try await client.post(
            "/auth/login", ["email": email, "password": password],
            headers: [.dpop: try await device.proof("POST", "/auth/login", nonce: nil)]
        )
        #expect(first.status == .badRequest)
        #expect(first.errorCode == "use_dpop_nonce")
        return try #require(first.headers[.dpopNonce])
    }

    func boundLogin(_ client: some TestClientProtocol, _ device: Device, email: String) async throws -> (
        access: String, refresh: String, nonce: String
    ) {
        _ = try await client.post("/auth/register", ["email": email, "password": password])
        let nonce = try await nonce(client, device, email: email)
        let login = try await client.post(
            "/auth/login", ["email": email, "password": password],
            headers: [.dpop: try await device.proof("POST", "/auth/login", nonce: nonce)]
        )
        #expect(login.status == .ok)
        #expect(login.json["token_type"] as? String == "DPoP")
        #expect(login.headers[.dpopNonce] != nil, "successful responses carry a fresh nonce")
        return (
            try #require(login.json["access_token"] as? String), try #require(login.json["refresh_token"] as? String),
            nonce
        )
    }

    /// The lock-out policy (docs/security.md): failures count per (account, client address), so a stranger who
    /// knows an email locks out only their own address; a distributed attack reaches an account-wide ceiling,
    /// from which a device key the member has signed in with before is exempt.
    @Test(arguments: TestEngine.available)
    func strangersCannotLockAMemberOut(engine: TestEngine) async throws {
        var configuration = Self.configuration()
        configuration.trustForwardedFor = true
        // 15 failures an hour (a long window, so nothing refills while the test runs).
        configuration.limits.failedLoginsPerAccountCeiling = .init(capacity: 15, window: .seconds(3_600))
        try await TestApp.withApp(engine, configuration: configuration) { client, _ in
            let device = Device()
            let email = "target@example.com"
            _ = try await boundLogin(client, device, email: email)
            func login(from address: String, _ password: String, as device: Device? = nil) async throws
                -> HTTPResponse.Status
            {
                var headers: HTTPFields = [.xForwardedFor: address]
                if let device {
                    headers[.dpop] = try await device.proof(
                        "POST", "/auth/login", nonce: try await nonce(client, device, email: email))
                }
                return try await client.post("/auth/login", ["email": email, "password": password], headers: headers)
                    .status
            }
            let wrong = "wrong-password-000"
            for _ in 0..<5 { #expect(try await login(from: "203.0.113.7", wrong) == .unauthorized) }
            #expect(
                try await login(from: "203.0.113.7", password) == .tooManyRequests,
                "the stranger's own address is limited")
            #expect(try await login(from: "198.51.100.1", password) == .ok, "the member elsewhere is not")

            // Strangers from two more addresses bring the account to its ceiling (5 + 10 = 15 failures).
            for index in 0..<2 {
                for _ in 0..<5 { #expect(try await login(from: "203.0.113.\(20 + index)", wrong) == .unauthorized) }
            }
            #expect(
                try await login(from: "198.51.100.2", password) == .tooManyRequests, "no proof: the ceiling applies")
            #expect(
                try await login(from: "198.51.100.3", password, as: Device()) == .tooManyRequests,
                "an unknown key is no exemption")
            #expect(
                try await login(from: "198.51.100.4", password, as: device) == .ok,
                "the member's known device is exempt")
            #expect(
                try await login(from: "198.51.100.5", wrong, as: device) == .unauthorized,
                "and still needs the password")
        }
    }

    @Test(arguments: TestEngine.available)
    func loginWithProofBindsTheSessionAndResourcesNeedTheKey(engine: TestEngine) async throws {
        try await TestApp.withApp(engine, configuration: Self.configuration()) { client, _ in
            let device = Device()
            let (access, refresh, nonce) = try await boundLogin(client, device, email: "bound@example.com")
            // The access token carries cnf.jkt = the device key's thumbprint.
            let payload = try #require(Base64URL.decode(access.split(separator: ".")[1]))
            let claims = try #require(try JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any])
            #expect((claims["cnf"] as? [String: Any])?["jkt"] as? String == device.thumbprint)

            // Resource request with the DPoP scheme and a proof carrying ath: accepted.
            let me = try await client.get(
                "/auth/me",
                headers: [
                    .authorization: "DPoP \(access)",
                    .dpop: try await device.proof("GET", "/auth/me", token: access, nonce: nonce),
                ]
            )
            #expect(me.status == .ok)
            #expect((me.json["user"] as? [String: Any])?["email"] as? String == "bound@example.com")

            // The same token as Bearer, or as the cookie: refused (RFC 9449 §7.2).
            #expect(try await client.get("/auth/me", bearer: access).errorCode == "invalid_token")
            #expect(
                try await client.get("/auth/me", headers: [.cookie: "auth-token=\(access)"]).errorCode
                    == "invalid_token")

            // Another device's key cannot use the token.
            let thief = Device()
            let stolen = try await client.get(
                "/auth/me",
                headers: [
                    .authorization: "DPoP \(access)",
                    .dpop: try await thief.proof("GET", "/auth/me", token: access, nonce: nonce),
                ]
            )
            #expect(stolen.status == .unauthorized)
            #expect(stolen.errorCode == "invalid_token")
            #expect(stolen.headers[.wwwAuthenticate]?.hasPrefix("DPoP") == true)

            // Refresh needs a proof by the bound key too; with it, the new token stays bound.
            let refreshed = try await client.post(
                "/auth/refresh", ["refresh_token": refresh],
                headers: [.dpop: try await device.proof("POST", "/auth/refresh", nonce: nonce)]
            )
            #expect(refreshed.status == .ok)
            #expect(refreshed.json["token_type"] as? String == "DPoP")
        }
    }

    @Test func refreshOfABoundSessionWithoutTheKeyIsRefusedAndRevokes() async throws {
        try await TestApp.withApp(.sqlite, configuration: Self.configuration()) { client, _ in
            let device = Device()
            let (access, refresh, nonce) = try await boundLogin(client, device, email: "thief@example.com")
            let plain = try await client.post("/auth/refresh", ["refresh_token": refresh])
            #expect(plain.errorCode == "invalid_grant")
            // The attempt revoked the session: the legitimate device is signed out too (stolen refresh token).
            let me = try await client.get(
                "/auth/me",
                headers: [
                    .authorization: "DPoP \(access)",
                    .dpop: try await device.proof("GET", "/auth/me", token: access, nonce: nonce),
                ]
            )
            #expect(me.status == .unauthorized)
        }
    }

    @Test func resourceNonceChallengeIs401WithWWWAuthenticate() async throws {
        try await TestApp.withApp(.sqlite, configuration: Self.configuration()) { client, _ in
            let device = Device()
            let (access, _, _) = try await boundLogin(client, device, email: "nonce@example.com")
            let challenged = try await client.get(
                "/auth/me",
                headers: [
                    .authorization: "DPoP \(access)",
                    .dpop: try await device.proof("GET", "/auth/me", token: access, nonce: nil),
                ]
            )
            #expect(challenged.status == .unauthorized)
            #expect(challenged.errorCode == "use_dpop_nonce")
            #expect(challenged.headers[.wwwAuthenticate] == #"DPoP error="use_dpop_nonce", algs="ES256""#)
            let fresh = try #require(challenged.headers[.dpopNonce])
            let retried = try await client.get(
                "/auth/me",
                headers: [
                    .authorization: "DPoP \(access)",
                    .dpop: try await device.proof("GET", "/auth/me", token: access, nonce: fresh),
                ]
            )
            #expect(retried.status == .ok)
        }
    }

    @Test func forgedReplayedAndMisdirectedProofsAreRefused() async throws {
        try await TestApp.withApp(.sqlite, configuration: Self.configuration()) { client, _ in
            let device = Device()
            let (access, _, nonce) = try await boundLogin(client, device, email: "forge@example.com")
            func me(_ proof: String, token: String = access) async throws -> TestResponse {
                try await client.get("/auth/me", headers: [.authorization: "DPoP \(token)", .dpop: proof])
            }
            // Replay: the same proof twice.
            let proof = try await device.proof("GET", "/auth/me", token: access, nonce: nonce)
            #expect(try await me(proof).status == .ok)
            let replay = try await me(proof)
            #expect(replay.status == .unauthorized)
            #expect(replay.errorCode == "invalid_dpop_proof")
            // Wrong method, wrong URI (other path, other origin), missing ath, wrong ath.
            #expect(
                try await me(try await device.proof("POST", "/auth/me", token: access, nonce: nonce)).errorCode
                    == "invalid_dpop_proof")
            #expect(
                try await me(try await device.proof("GET", "/auth/logout", token: access, nonce: nonce)).errorCode
                    == "invalid_dpop_proof")
            let otherOrigin = try await device.builder.proof(
                method: "GET", url: "https://evil.example/auth/me", accessToken: access, nonce: nonce)
            #expect(try await me(otherOrigin).errorCode == "invalid_dpop_proof")
            #expect(
                try await me(try await device.proof("GET", "/auth/me", token: nil, nonce: nonce)).errorCode
                    == "invalid_dpop_proof")
            #expect(
                try await me(try await device.proof("GET", "/auth/me", token: "another-token", nonce: nonce)).errorCode
                    == "invalid_dpop_proof")
            // A forged nonce is a nonce challenge, answered with a real one.
            let forgedNonce = try await me(
                try await device.proof(
                    "GET", "/auth/me", token: access, nonce: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"))
            #expect(forgedNonce.errorCode == "use_dpop_nonce")
            // A tampered signature.
            var parts = try await device.proof("GET", "/auth/me", token: access, nonce: nonce).split(separator: ".")
                .map(String.init)
            parts[1] = Base64URL.encode(
                Array(#"{"htm":"GET","htu":"https://api.vettid.test/auth/me","iat":1,"jti":"x"}"#.utf8))
            #expect(try await me(parts.joined(separator: ".")).errorCode == "invalid_dpop_proof")
            // Two DPoP headers.
            let two = try await client.execute(
                uri: "/auth/me", method: .get,
                headers: [.authorization: "DPoP \(access)", .dpop: proof, .dpop: proof]
            )
            #expect(two.errorCode == "invalid_dpop_proof")
            // An unbound (Bearer) token presented with the DPoP scheme.
            let plain = try await client.registerAndLogin(email: "plain@example.com")
            let plainToken = try #require(plain["access_token"] as? String)
            #expect(
                try await me(
                    try await device.proof("GET", "/auth/me", token: plainToken, nonce: nonce), token: plainToken
                ).errorCode == "invalid_token")
        }
    }

    @Test func aReplayIsCaughtAcrossServerInstancesSharingTheStore() async throws {
        try await withTestStore(.sqlite) { store in
            let keys = ServerKeys.ephemeral()
            let configuration = Self.configuration()
            let first = try await ServerComponents.make(
                configuration: configuration, store: store, keys: keys, logger: .init(label: "a"))
            let second = try await ServerComponents.make(
                configuration: configuration, store: store, keys: keys, logger: .init(label: "b"))
            let device = Device()
            let nonce = first.dpop.currentNonce()
            let proof = try await device.proof("POST", "/auth/login", nonce: nonce)
            func info() -> RequestInfo {
                var head = HTTPRequest(
                    method: .post, scheme: "https", authority: "api.vettid.test", path: "/auth/login")
                head.headerFields[.dpop] = proof
                return RequestInfo(
                    head: head, clientIP: nil, requestID: "t", logger: .init(label: "t"),
                    responseHeaders: ResponseHeaders())
            }
            #expect(try await first.dpop.verify(info(), endpoint: .token).thumbprint == device.thumbprint)
            await #expect(throws: APIFailure.self) { _ = try await second.dpop.verify(info(), endpoint: .token) }
        }
    }
}
