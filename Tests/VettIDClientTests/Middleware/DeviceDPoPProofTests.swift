// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing
import VettIDCrypto
import VettIDVerification

@testable import VettIDClient

@Suite("Device DPoP proofs")
struct DeviceDPoPProofTests {
    @Test("a proof verifies with the device key; ath only with a token; htu without query and fragment")
    func proofContents() async throws {
        let keyStore = SoftwareDeviceKeyStore(store: InMemorySecureStore())
        let key = try await keyStore.deviceKey()
        let provider = DeviceDPoPProofProvider(keyStore: keyStore)
        let url = URL(string: "https://API.example.com:443/v1/items?secret=1#frag")!

        let withToken = try await provider.proof(method: .get, url: url, accessToken: "access-token")
        let verifier = DPoPVerifier(replayCache: InMemoryDPoPReplayCache())
        let verified = try await verifier.verify(
            DPoPRequest(
                proof: withToken,
                method: "GET",
                targetURI: "https://api.example.com/v1/items",
                accessToken: "access-token",
                boundKeyThumbprint: key.thumbprint
            )
        )
        #expect(verified.thumbprint == key.thumbprint)
        let claims = try proofClaims(withToken)
        #expect(claims["ath"]?.stringValue == DPoPProofBuilder.accessTokenHash("access-token"))
        #expect(claims["htu"]?.stringValue == "https://API.example.com:443/v1/items")
        #expect(claims["nonce"] == nil)

        let withoutToken = try await provider.proof(method: .post, url: url, accessToken: nil)
        #expect(try proofClaims(withoutToken)["ath"] == nil)
        #expect(try proofClaims(withoutToken)["htm"]?.stringValue == "POST")
        let header = try CompactJWS(parsing: withoutToken).header
        #expect(header["typ"]?.stringValue == "dpop+jwt")
        #expect(header["jwk"]?["d"] == nil)
    }

    @Test("AuthManager with a device key: login carries a proof without ath, resources use DPoP scheme with ath")
    @MainActor
    func authManagerBindsTheSession() async throws {
        let keyStore = SoftwareDeviceKeyStore(store: InMemorySecureStore())
        let transport = FakeTransport { request in
            switch request.path {
            case "/auth/login":
                // A server that wants a nonce first (RFC 9449 §8).
                let nonce = try proofClaims(request.headers[dpopField])["nonce"]?.stringValue
                guard nonce == "as-nonce" else {
                    return errorResponse(.badRequest, code: "use_dpop_nonce", headers: [dpopNonceField: "as-nonce"])
                }
                return jsonResponse(
                    .ok, tokenResponseJSON(access: "bound-1", refresh: "r1", tokenType: "DPoP"),
                    headers: [dpopNonceField: "as-nonce-2"])
            case "/auth/me":
                return jsonResponse(.ok, userJSON())
            default:
                return errorResponse(.notFound, code: "not_found")
            }
        }
        let manager = AuthManager(
            configuration: try .init(
                baseURL: testBaseURL, store: InMemorySecureStore(), binding: .deviceKey(keyStore), transport: transport,
                retryPolicy: .disabled)
        )
        try await manager.login(email: "member@example.com", password: "a sufficiently long passphrase")
        await manager.checkAuthStatus()
        #expect(manager.isAuthenticated)

        let requests = await transport.log.requests
        #expect(requests.map(\.path) == ["/auth/login", "/auth/login", "/auth/me"])
        for login in requests.prefix(2) {
            #expect(login.headers[.authorization] == nil)
            #expect(try proofClaims(login.headers[dpopField])["ath"] == nil)
        }
        let me = requests[2]
        #expect(me.headers[.authorization] == "DPoP bound-1")
        let claims = try proofClaims(me.headers[dpopField])
        #expect(claims["ath"]?.stringValue == DPoPProofBuilder.accessTokenHash("bound-1"))
        #expect(claims["nonce"]?.stringValue == "as-nonce-2")
        let key = try await keyStore.deviceKey()
        #expect(try CompactJWS(parsing: try #require(me.headers[dpopField])).header["jwk"] == key.publicJWK.json)
    }

    @Test(
        "by default the session is bound to the platform's device key, kept in the session's store; bearer only when chosen"
    )
    @MainActor
    func theDefaultBindingIsThePlatformDeviceKey() async throws {
        func transport() -> FakeTransport {
            FakeTransport { request in
                switch request.path {
                case "/auth/login":
                    let bound = request.headers[dpopField] != nil
                    return jsonResponse(
                        .ok, tokenResponseJSON(access: "a1", refresh: "r1", tokenType: bound ? "DPoP" : "Bearer"))
                case "/auth/me": return jsonResponse(.ok, userJSON())
                default: return errorResponse(.notFound, code: "not_found")
                }
            }
        }
        #expect(PlatformCapabilities.current == .linux, "on Linux the platform key is a software key")
        let store = InMemorySecureStore()
        let bound = transport()
        let manager = AuthManager(
            configuration: try .init(baseURL: testBaseURL, store: store, transport: bound, retryPolicy: .disabled))
        try await manager.login(email: "member@example.com", password: "a sufficiently long passphrase")
        await manager.checkAuthStatus()
        let requests = await bound.log.requests
        let login = try #require(requests.first)
        let proofKey = try CompactJWS(parsing: try #require(login.headers[dpopField])).header["jwk"]
        // The key is the software key the session's store now holds, under the default storage key.
        #expect(await store.keys.contains("vettid.device-key.p256"))
        let key = try await SoftwareDeviceKeyStore(store: store).deviceKey()
        #expect(proofKey == key.publicJWK.json)
        #expect(requests.last?.headers[.authorization] == "DPoP a1")

        let plain = transport()
        let bearer = AuthManager(
            configuration: try .init(
                baseURL: testBaseURL, store: InMemorySecureStore(), binding: .bearer, transport: plain,
                retryPolicy: .disabled))
        try await bearer.login(email: "member@example.com", password: "a sufficiently long passphrase")
        await bearer.checkAuthStatus()
        for request in await plain.log.requests { #expect(request.headers[dpopField] == nil) }
        #expect(await plain.log.requests.last?.headers[.authorization] == "Bearer a1")
    }

    @Test("a 401 whose only error signal is WWW-Authenticate DPoP maps to that code")
    func errorMappingReadsWWWAuthenticate() {
        let response = HTTPResponse(
            status: .unauthorized, headerFields: [.wwwAuthenticate: #"DPoP error="invalid_token""#])
        #expect(ErrorMappingMiddleware.error(response: response, body: Data()).code == .invalidToken)
        let withBody = ErrorMappingMiddleware.error(response: response, body: Data(#"{"error":"use_dpop_nonce"}"#.utf8))
        #expect(withBody.code == .useDPoPNonce)
    }
}

@Suite("Device key store")
struct DeviceKeyStoreTests {
    @Test("the software key persists across instances, is created once under concurrency, and reset replaces it")
    func softwareKeyLifecycle() async throws {
        let store = InMemorySecureStore()
        let first = SoftwareDeviceKeyStore(store: store)
        let thumbprints = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<20 { group.addTask { try await first.deviceKey().thumbprint } }
            return try await group.reduce(into: Set<String>()) { _ = $0.insert($1) }
        }
        #expect(thumbprints.count == 1)
        let reopened = try await SoftwareDeviceKeyStore(store: store).deviceKey()
        #expect(reopened.thumbprint == thumbprints.first)
        #expect(reopened.thumbprintBytes.count == 32)

        try await first.reset()
        let replaced = try await first.deviceKey()
        #expect(replaced.thumbprint != reopened.thumbprint)
        #expect(String(describing: replaced).contains(replaced.thumbprint))
    }

    @Test("a corrupted stored key is reported, not silently replaced")
    func corruptedKey() async throws {
        let store = InMemorySecureStore()
        try await store.set(Data([1, 2, 3]), forKey: "vettid.device-key.p256")
        do throws(DeviceKeyError) {
            _ = try await SoftwareDeviceKeyStore(store: store).deviceKey()
            Issue.record("expected corrupted")
        } catch {
            #expect(error.code == .corrupted)
        }
        #expect(try await store.data(forKey: "vettid.device-key.p256") == Data([1, 2, 3]))
    }
}
