// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing
import VettIDAPI

@testable import VettIDClient

@Suite("Auth header middleware")
struct AuthHeaderMiddlewareTests {
    /// Returns a proof that names its inputs, so tests can check what it was asked for.
    struct EchoProof: DPoPProofProvider {
        func proof(method: HTTPRequest.Method, url: URL, accessToken: String?) async throws -> String {
            "proof(\(method.rawValue) \(url.absoluteString) ath:\(accessToken ?? "none"))"
        }
    }

    func client(_ transport: FakeTransport, session: TokenSession, proofs: (any DPoPProofProvider)?) throws -> APIClient
    {
        let configuration = try APIClientConfiguration(
            baseURL: URL(string: "http://127.0.0.1:9/api")!,
            transport: transport,
            retryPolicy: .disabled,
            proofProvider: proofs
        )
        return APIClient(configuration: configuration, session: session)
    }

    @Test("Bearer tokens go out as Bearer, DPoP-bound tokens as DPoP with a proof carrying ath")
    func schemes() async throws {
        let transport = FakeTransport { _ in jsonResponse(.ok, userJSON()) }
        let session = TokenSession(store: InMemorySecureStore())
        try await session.update(sessionTokens(access: "plain", refresh: "r"))
        _ = try await client(transport, session: session, proofs: nil).perform { try await $0.getCurrentUser() }
        var sent = try #require(await transport.log.requests.last)
        #expect(sent.headers[.authorization] == "Bearer plain")
        #expect(sent.headers[HTTPField.Name("DPoP")!] == nil)

        var bound = sessionTokens(access: "bound", refresh: "r")
        bound.tokenType = "DPoP"
        try await session.update(bound)
        _ = try await client(transport, session: session, proofs: EchoProof()).perform { try await $0.getCurrentUser() }
        sent = try #require(await transport.log.requests.last)
        #expect(sent.headers[.authorization] == "DPoP bound")
        #expect(sent.headers[HTTPField.Name("DPoP")!] == "proof(GET http://127.0.0.1:9/api/auth/me ath:bound)")
    }

    @Test("login and refresh carry a proof without ath and no Authorization; register and health carry nothing")
    func tokenEndpoints() async throws {
        let transport = FakeTransport { request in
            switch request.path {
            case "/auth/login", "/auth/refresh":
                return jsonResponse(.ok, tokenResponseJSON(access: "a2", refresh: "r2"))
            case "/auth/register": return jsonResponse(.created, #"{"user":\#(userJSON())}"#)
            default: return jsonResponse(.ok, #"{"status":"ok","version":"1"}"#)
            }
        }
        let session = TokenSession(store: InMemorySecureStore())
        try await session.update(sessionTokens(access: "a1", refresh: "r1"))
        let api = try client(transport, session: session, proofs: EchoProof())
        _ = try await api.perform { try await $0.login(body: .json(.init(email: "a@b.c", password: "p"))) }
        _ = try await api.perform { try await $0.register(body: .json(.init(email: "a@b.c", password: "p"))) }
        _ = try await api.perform { try await $0.getHealth() }
        let refresher = APIClient.makeRefresher(configuration: api.configuration)
        _ = try await refresher("r1")

        let requests = await transport.log.requests
        let login = try #require(requests.first { $0.path == "/api/auth/login" || $0.path == "/auth/login" })
        #expect(login.headers[.authorization] == nil)
        #expect(login.headers[HTTPField.Name("DPoP")!]?.hasSuffix("ath:none)") == true)
        let refresh = try #require(requests.first { $0.path.hasSuffix("/auth/refresh") })
        #expect(refresh.headers[.authorization] == nil)
        #expect(refresh.headers[HTTPField.Name("DPoP")!]?.contains("POST http://127.0.0.1:9/api/auth/refresh") == true)
        for path in ["/auth/register", "/health"] {
            let request = try #require(requests.first { $0.path.hasSuffix(path) })
            #expect(request.headers[.authorization] == nil)
            #expect(request.headers[HTTPField.Name("DPoP")!] == nil)
        }
    }
}
