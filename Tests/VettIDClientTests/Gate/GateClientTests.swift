// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes
import Logging
import Testing
import VettIDAttestation
import VettIDCore
import VettIDCrypto
import VettIDSoftwareAttestation
import VettIDSoftwareAttestationClient
import VettIDTestSupport

@testable import VettIDClient

@Suite("Gate client")
struct GateClientTests {
    struct Fixture {
        let server: FakeGateServer
        let transport: FakeTransport
        let client: GateClient
        let store: InMemorySecureStore
    }

    func makeFixture(
        developmentToken: String? = nil,
        clock: ManualClock? = nil,
        server existing: FakeGateServer? = nil,
        store existingStore: InMemorySecureStore? = nil
    ) async throws -> Fixture {
        let wall: any WallClock = clock?.wall ?? SystemWallClock()
        let server = try existing ?? FakeGateServer(clock: wall)
        let transport = server.transport()
        let store = existingStore ?? InMemorySecureStore()
        let configuration = try GateClientConfiguration(
            baseURL: URL(string: FakeGateServer.baseURL)!,
            teamID: "ABCDE12345",
            bundleID: "dev.vettid.gate-tests",
            transport: transport,
            clock: wall
        )
        let attester: any DeviceAttester =
            if let developmentToken {
                DevelopmentTokenAttester(token: developmentToken)
            } else {
                SoftwareDeviceAttester(
                    attester: SoftwareAttester(authority: server.authority, appID: server.appID), store: store)
            }
        let client = GateClient(
            configuration: configuration,
            deviceKeyStore: SoftwareDeviceKeyStore(store: store),
            attester: attester,
            store: store
        )
        return Fixture(server: server, transport: transport, client: client, store: store)
    }

    @Test("first request: challenge, register, new challenge, token, proxied call with DPoP scheme and ath")
    func fullFlow() async throws {
        let fixture = try await makeFixture()
        let response = try await fixture.client.performProxyRequest(
            path: "/proxy/echo/v1/items?limit=2#frag",
            method: .patch,
            body: Data(#"{"a":1}"#.utf8),
            additionalHeaders: [HTTPField.Name("X-Custom")!: "kept", .authorization: "Bearer attacker", .cookie: "c=1"]
        )
        #expect(response.status == .ok)
        let echo = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: String])
        #expect(echo["method"] == "PATCH")
        #expect(echo["body"] == #"{"a":1}"#)
        #expect(echo["x-custom"] == "kept")

        let requests = await fixture.transport.log.requests
        let paths = requests.map { String($0.path.prefix { $0 != "?" }) }
        // The very first proof has no nonce: the Gate asks for one once, then the remembered nonce is used.
        #expect(
            paths == [
                "/attest/challenge", "/attest/challenge", "/attest/register", "/attest/challenge", "/token",
                "/proxy/echo/v1/items",
            ])
        // the query is forwarded, the fragment never sent
        #expect(requests.last?.path == "/proxy/echo/v1/items?limit=2")
        let challenges = await fixture.server.challengeLog
        #expect(challenges.count == 2)
        #expect(Set(challenges).count == 2)

        let proxied = try #require(requests.last)
        #expect(proxied.headers[.authorization] == "DPoP gate-token-1")
        #expect(proxied.headers[.cookie] == nil)
        let claims = try proofClaims(proxied.headers[dpopField])
        #expect(claims["ath"]?.stringValue == DPoPProofBuilder.accessTokenHash("gate-token-1"))
        #expect(claims["htu"]?.stringValue == "http://127.0.0.1:9/proxy/echo/v1/items")
        #expect(claims["htm"]?.stringValue == "PATCH")
        #expect(claims["nonce"] != nil)
        for request in requests where !request.path.hasPrefix("/proxy/") {
            #expect(request.headers[.authorization] == nil)
            #expect(try proofClaims(request.headers[dpopField])["ath"] == nil)
        }
    }

    @Test("100 concurrent requests cause exactly one mint")
    func singleFlightMint() async throws {
        let fixture = try await makeFixture()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<100 {
                group.addTask {
                    let response = try await fixture.client.performProxyRequest(path: "proxy/echo/\(index)")
                    #expect(response.status == .ok)
                }
            }
            try await group.waitForAll()
        }
        #expect(await fixture.client.mintCount == 1)
        #expect(await fixture.server.tokenCalls == 1)
        #expect(await fixture.server.registerCalls == 1)
        #expect(await fixture.server.proxyCalls >= 100)
    }

    @Test("the token is reused until 60 s before expiry, then replaced")
    func refreshBeforeExpiry() async throws {
        let clock = ManualClock()
        let fixture = try await makeFixture(developmentToken: "dev-token", clock: clock)
        await fixture.server.set(expiresIn: 300)
        let first = try await fixture.client.accessToken()
        clock.advance(239)
        #expect(try await fixture.client.accessToken() == first)
        #expect(await fixture.client.mintCount == 1)
        clock.advance(2)  // 241 s: the token expires within 60 s
        let second = try await fixture.client.accessToken()
        #expect(second != first)
        #expect(await fixture.client.mintCount == 2)
        #expect(await fixture.server.registerCalls == 0)
    }

    @Test("a proxied use_dpop_nonce challenge is retried once with the new nonce")
    func proxyNonceRetry() async throws {
        let fixture = try await makeFixture(developmentToken: "dev-token")
        _ = try await fixture.client.performProxyRequest(path: "/proxy/echo/one")
        await fixture.server.set(rotateNonceBeforeProxy: true)
        let response = try await fixture.client.performProxyRequest(path: "/proxy/echo/two")
        #expect(response.status == .ok)
        let proxied = await fixture.transport.log.requests.filter { $0.path == "/proxy/echo/two" }
        #expect(proxied.count == 2)
        let nonces = try proxied.map { try proofClaims($0.headers[dpopField])["nonce"]?.stringValue }
        #expect(nonces[0] != nonces[1])
        #expect(await fixture.client.mintCount == 1)
    }

    @Test("a revoked token (401 invalid_token) is replaced once; upstream errors keep status and body")
    func invalidTokenAndServerErrors() async throws {
        let fixture = try await makeFixture(developmentToken: "dev-token")
        _ = try await fixture.client.performProxyRequest(path: "/proxy/echo/a")
        await fixture.server.revokeTokens()
        _ = try await fixture.client.performProxyRequest(path: "/proxy/echo/b")
        #expect(await fixture.client.mintCount == 2)

        do throws(GateError) {
            _ = try await fixture.client.performProxyRequest(path: "/proxy/echo/missing", method: .delete)
            Issue.record("expected a server error")
        } catch {
            #expect(error.code == .server)
            #expect(error.status == 404)
            #expect(error.serverCode == .notFound)
            #expect(String(decoding: error.body ?? Data(), as: UTF8.self).contains("not_found"))
        }
    }

    @Test("a token that is not DPoP-bound is refused")
    func bearerTokenRefused() async throws {
        let fixture = try await makeFixture(developmentToken: "dev-token")
        await fixture.server.set(tokenType: "Bearer")
        do throws(GateError) {
            _ = try await fixture.client.accessToken()
            Issue.record("expected invalid_response")
        } catch {
            #expect(error.code == .invalidResponse)
        }
    }

    @Test("a wrong development token is a server error with its code")
    func wrongDevelopmentToken() async throws {
        let fixture = try await makeFixture(developmentToken: "nope")
        do throws(GateError) {
            _ = try await fixture.client.performProxyRequest(path: "/proxy/echo/x")
            Issue.record("expected invalid_grant")
        } catch {
            #expect(error.code == .server)
            #expect(error.status == 400)
            #expect(error.serverCode == .invalidGrant)
        }
    }

    @Test("a restarted client reuses its registration; a Gate that forgot the key gets a new registration once")
    func registrationPersistsAndRecovers() async throws {
        let store = InMemorySecureStore()
        let first = try await makeFixture(store: store)
        _ = try await first.client.accessToken()
        #expect(await first.server.registerCalls == 1)

        let restarted = try await makeFixture(server: first.server, store: store)
        _ = try await restarted.client.accessToken()
        #expect(await first.server.registerCalls == 1)
        #expect(await first.server.tokenCalls == 2)

        await first.server.forgetKeys()
        let again = try await makeFixture(server: first.server, store: store)
        _ = try await again.client.accessToken()
        #expect(await first.server.registerCalls == 2)

        try await again.client.clearAppAttestKey()
        _ = try await again.client.accessToken()
        #expect(await first.server.registerCalls == 3)
    }

    @Test("configuration validation")
    func configurationValidation() throws {
        let url = URL(string: "https://gate.example.com")!
        #expect(throws: ConfigurationError.self) {
            try GateClientConfiguration(
                baseURL: URL(string: "gate.example.com")!, teamID: "ABCDE12345", bundleID: "a.b")
        }
        #expect(throws: ConfigurationError.self) {
            try GateClientConfiguration(
                baseURL: URL(string: "ftp://gate.example.com")!, teamID: "ABCDE12345", bundleID: "a.b")
        }
        for teamID in ["ABCDE1234", "ABCDE123456", "abcde12345", "ABCDE-1234"] {
            do throws(ConfigurationError) {
                _ = try GateClientConfiguration(baseURL: url, teamID: teamID, bundleID: "a.b")
                Issue.record("accepted \(teamID)")
            } catch {
                #expect(error.code == .invalidTeamID)
            }
        }
        #expect(throws: ConfigurationError.self) {
            try GateClientConfiguration(baseURL: url, teamID: "ABCDE12345", bundleID: "")
        }
        #expect(throws: ConfigurationError.self) {
            try GateClientConfiguration(
                baseURL: "https://gate.example.com", teamID: "ABCDE12345", bundleID: "a.b", logLevel: "loud")
        }
        let valid = try GateClientConfiguration(
            baseURL: "https://gate.example.com", teamID: "ABCDE12345", bundleID: "a.b", logLevel: "DEBUG")
        #expect(valid.logger.logLevel == .debug)
        #expect(valid.appID == "ABCDE12345.a.b")
        #expect(throws: GateError.self) { try GateClient.proxyPath("https://evil.example.com/x") }
        #expect(try GateClient.proxyPath("proxy/x") == "/proxy/x")
        #expect(try GateClient.proxyPath("/proxy/x?a=1#top") == "/proxy/x?a=1")
    }
}

@Suite("Gate token cache")
struct GateTokenCacheTests {
    actor Counter {
        var value = 0
        func increment() -> Int {
            value += 1
            return value
        }
    }

    @Test("100 concurrent callers share one mint; a failed mint is retried by the next caller")
    func singleFlight() async throws {
        let counter = Counter()
        let clock = ManualClock()
        let cache = GateTokenCache(refreshMargin: 60, clock: clock.wall) {
            () async throws(GateError) -> GateAccessToken in
            let count = await counter.increment()
            try? await Task.sleep(for: .milliseconds(50))
            if count == 2 { throw GateError(code: .network, message: "down") }
            return GateAccessToken(value: "t\(count)", expiresAt: clock.wall.now().addingTimeInterval(300))
        }
        let values = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<100 { group.addTask { try await cache.validToken().value } }
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(Set(values) == ["t1"])
        #expect(await counter.value == 1)
        #expect(try await cache.validToken().value == "t1")
        // now within 60 s of expiry: the next call mints; that mint fails, the one after succeeds
        clock.advance(241)
        await #expect(throws: GateError.self) { _ = try await cache.validToken() }
        #expect(try await cache.validToken().value == "t3")
        #expect(await cache.mintCount == 3)
    }
}
