// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing
import VettIDCrypto

@testable import VettIDClient

/// Reads the claims of a compact DPoP proof.
func proofClaims(_ proof: String?) throws -> JSONValue {
    try CompactJWS(parsing: try #require(proof)).payload
}

let dpopField = HTTPField.Name("DPoP")!
let dpopNonceField = HTTPField.Name("DPoP-Nonce")!

@Suite("DPoP nonce memory and retry")
struct DPoPNonceTests {
    let keyStore = SoftwareDeviceKeyStore(store: InMemorySecureStore())

    /// Sends one request with a proof through a `DPoPNonceMiddleware` over `handler`, like a generated client would.
    func send(
        _ path: String,
        method: HTTPRequest.Method = .post,
        authorization: String? = nil,
        baseURL: URL = URL(string: "https://as.example.com")!,
        provider: DeviceDPoPProofProvider,
        transport: FakeTransport
    ) async throws -> HTTPResponse {
        var request = HTTPRequest(method: method, scheme: nil, authority: nil, path: path)
        if let authorization { request.headerFields[.authorization] = authorization }
        let chain = DPoPProofMiddleware(proofProvider: provider)
        let nonces = DPoPNonceMiddleware(proofProvider: provider)
        let (response, _) = try await chain.intercept(
            request, body: HTTPBody("{}"), baseURL: baseURL, operationID: "op"
        ) { r, b, u in
            try await nonces.intercept(r, body: b, baseURL: u, operationID: "op") { r, b, u in
                try await transport.send(r, body: b, baseURL: u, operationID: "op")
            }
        }
        return response
    }

    @Test("a nonce from a 2xx answer is remembered per origin and used in the next proof to that origin only")
    func nonceMemoryPerOrigin() async throws {
        let provider = DeviceDPoPProofProvider(keyStore: keyStore)
        let transport = FakeTransport { request in
            request.path == "/first"
                ? jsonResponse(.ok, "{}", headers: [dpopNonceField: "nonce-A"]) : jsonResponse(.ok, "{}")
        }
        _ = try await send("/first", provider: provider, transport: transport)
        _ = try await send("/second", provider: provider, transport: transport)
        _ = try await send(
            "/other", baseURL: URL(string: "https://rs.example.com")!, provider: provider, transport: transport)
        _ = try await send(
            "/port", baseURL: URL(string: "https://as.example.com:8443")!, provider: provider, transport: transport)

        let requests = await transport.log.requests
        #expect(try proofClaims(requests[0].headers[dpopField])["nonce"] == nil)
        #expect(try proofClaims(requests[1].headers[dpopField])["nonce"]?.stringValue == "nonce-A")
        #expect(try proofClaims(requests[2].headers[dpopField])["nonce"] == nil)
        #expect(try proofClaims(requests[3].headers[dpopField])["nonce"] == nil)
        #expect(await provider.nonceStore.nonce(for: URL(string: "https://AS.example.com:443/x?y")!) == "nonce-A")
        #expect(DPoPNonceStore.origin(of: URL(string: "http://h/p")!) == "http://h:80")
    }

    @Test("400 use_dpop_nonce at a token endpoint is retried once with the new nonce and no ath")
    func tokenEndpointRetry() async throws {
        let provider = DeviceDPoPProofProvider(keyStore: keyStore)
        let transport = FakeTransport { request in
            let nonce = try proofClaims(request.headers[dpopField])["nonce"]?.stringValue
            guard nonce == "fresh" else {
                return errorResponse(.badRequest, code: "use_dpop_nonce", headers: [dpopNonceField: "fresh"])
            }
            return jsonResponse(.ok, "{}")
        }
        let response = try await send("/token", provider: provider, transport: transport)
        #expect(response.status == .ok)
        let requests = await transport.log.requests
        #expect(requests.count == 2)
        #expect(try proofClaims(requests[1].headers[dpopField])["ath"] == nil)
        #expect(
            try proofClaims(requests[0].headers[dpopField])["jti"] != proofClaims(requests[1].headers[dpopField])["jti"]
        )
    }

    @Test("401 WWW-Authenticate DPoP error=use_dpop_nonce at a resource is retried once, with ath again")
    func resourceRetry() async throws {
        let provider = DeviceDPoPProofProvider(keyStore: keyStore)
        let transport = FakeTransport { request in
            let nonce = try proofClaims(request.headers[dpopField])["nonce"]?.stringValue
            guard nonce == "rs-nonce" else {
                return (
                    HTTPResponse(
                        status: .unauthorized,
                        headerFields: [
                            .wwwAuthenticate: #"DPoP error="use_dpop_nonce", algs="ES256""#, dpopNonceField: "rs-nonce",
                        ]
                    ), nil
                )
            }
            return jsonResponse(.ok, "{}")
        }
        let response = try await send(
            "/proxy/x?q=1", method: .get, authorization: "DPoP tok", provider: provider, transport: transport)
        #expect(response.status == .ok)
        let requests = await transport.log.requests
        #expect(requests.count == 2)
        let retried = try proofClaims(requests[1].headers[dpopField])
        #expect(retried["ath"]?.stringValue == DPoPProofBuilder.accessTokenHash("tok"))
        #expect(retried["htu"]?.stringValue == "https://as.example.com/proxy/x")
        #expect(retried["htm"]?.stringValue == "GET")
    }

    @Test("a second nonce challenge is returned, not retried again")
    func retriesOnlyOnce() async throws {
        let provider = DeviceDPoPProofProvider(keyStore: keyStore)
        let counter = RequestLog()
        let transport = FakeTransport { request in
            await counter.append(request)
            let nonce = "n\(await counter.requests.count)"
            return errorResponse(.badRequest, code: "use_dpop_nonce", headers: [dpopNonceField: nonce])
        }
        let response = try await send("/token", provider: provider, transport: transport)
        #expect(response.status == .badRequest)
        #expect(await transport.log.requests.count == 2)
    }

    @Test(
        "other errors are not retried",
        arguments: [
            (400, "invalid_dpop_proof", nil as String?, true),
            (401, "invalid_token", #"DPoP error="invalid_token""#, true),
            (401, "use_dpop_nonce", #"Bearer error="invalid_token""#, true),
            (400, "use_dpop_nonce", nil, false),  // no DPoP-Nonce header: retrying could not help
            (403, "use_dpop_nonce", nil, true),
        ]
    )
    func noRetry(status: Int, code: String, wwwAuthenticate: String?, withNonce: Bool) async throws {
        let provider = DeviceDPoPProofProvider(keyStore: keyStore)
        let transport = FakeTransport { _ in
            var headers: HTTPFields = [:]
            if withNonce { headers[dpopNonceField] = "n1" }
            if let wwwAuthenticate { headers[.wwwAuthenticate] = wwwAuthenticate }
            return errorResponse(.init(code: status), code: code, headers: headers)
        }
        let response = try await send("/token", provider: provider, transport: transport)
        #expect(response.status.code == status)
        #expect(await transport.log.requests.count == 1)
        if withNonce { #expect(await provider.nonceStore.nonce(for: URL(string: "https://as.example.com")!) == "n1") }
    }

    @Test("WWW-Authenticate DPoP error parameter parsing")
    func wwwAuthenticateParsing() {
        #expect(
            DPoPNonceChallenge.dpopError(inWWWAuthenticate: #"DPoP error="use_dpop_nonce", algs="ES256""#)
                == "use_dpop_nonce")
        #expect(
            DPoPNonceChallenge.dpopError(inWWWAuthenticate: #"dpop algs="ES256", error="invalid_token""#)
                == "invalid_token")
        #expect(DPoPNonceChallenge.dpopError(inWWWAuthenticate: "DPoP error=use_dpop_nonce") == "use_dpop_nonce")
        #expect(DPoPNonceChallenge.dpopError(inWWWAuthenticate: #"Bearer error="use_dpop_nonce""#) == nil)
        #expect(DPoPNonceChallenge.dpopError(inWWWAuthenticate: "DPoPX error=x") == nil)
        #expect(DPoPNonceChallenge.dpopError(inWWWAuthenticate: #"DPoP algs="ES256""#) == nil)
    }
}
