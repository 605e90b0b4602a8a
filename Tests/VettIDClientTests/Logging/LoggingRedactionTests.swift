// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes
import Logging
import OpenAPIRuntime
import Testing
import VettIDAPI
import VettIDTestSupport

@testable import VettIDClient

@Suite("Logging redaction")
struct LoggingRedactionTests {
    static let password = "correct horse battery staple 42!"
    static let accessToken = "eyJhbGciOiJFUzI1NiJ9.secret-access-token-value.sig"
    static let refreshToken = "secret-refresh-token-value"
    static let dpopProof = "eyJ0eXAiOiJkcG9wK2p3dCJ9.secret-proof.sig"

    struct FixedProof: DPoPProofProvider {
        func proof(method: HTTPRequest.Method, url: URL, accessToken: String?) async throws -> String {
            LoggingRedactionTests.dpopProof
        }
    }

    @Test("trace logs of login, me and refresh contain no password, token, cookie or proof value")
    func noSecretsInLogs() async throws {
        let capture = LogCapture()
        let transport = FakeTransport { request in
            switch request.path {
            case "/auth/login":
                return jsonResponse(
                    .ok,
                    tokenResponseJSON(access: Self.accessToken, refresh: Self.refreshToken),
                    headers: [.setCookie: "auth-token=\(Self.accessToken); HttpOnly; Secure; SameSite=Strict; Path=/"]
                )
            case "/auth/me":
                return jsonResponse(.ok, userJSON(), headers: [.setCookie: "auth-token=\(Self.accessToken); HttpOnly"])
            default:
                return errorResponse(.notFound, code: "not_found")
            }
        }
        let configuration = try AuthManager.Configuration(
            baseURL: testBaseURL,
            store: InMemorySecureStore(),
            transport: transport,
            logger: capture.logger(level: .trace),
            retryPolicy: .disabled,
            proofProvider: FixedProof()
        )
        let manager = await AuthManager(configuration: configuration)
        try await manager.login(email: "member@example.com", password: Self.password)
        await manager.checkAuthStatus()
        #expect(await manager.isAuthenticated)

        let text = capture.text
        #expect(!text.isEmpty)
        #expect(text.contains("/auth/login"))
        #expect(text.contains("/auth/me"))
        #expect(text.contains(LoggingMiddleware.redactionMarker))
        for secret in [Self.password, Self.accessToken, Self.refreshToken, Self.dpopProof, "secret-access-token-value"]
        {
            #expect(!text.contains(secret), "log output leaked a secret")
        }
        // The authenticated request did carry the credentials: redaction, not absence, kept them out.
        let me = try #require(await transport.log.requests.first { $0.path == "/auth/me" })
        #expect(me.headers[.authorization] == "Bearer \(Self.accessToken)")
        #expect(me.headers[HTTPField.Name("DPoP")!] == Self.dpopProof)
    }

    @Test("redacted(_:) hides sensitive fields and keeps the others")
    func redactedFields() {
        var fields = HTTPFields()
        fields[.authorization] = "Bearer abc"
        fields[.cookie] = "auth-token=abc"
        fields[.setCookie] = "auth-token=abc"
        fields[HTTPField.Name("DPoP")!] = "proof"
        fields[.proxyAuthorization] = "Basic abc"
        fields[.contentType] = "application/json"
        let text = LoggingMiddleware.redacted(fields)
        #expect(!text.contains("abc"))
        #expect(!text.contains("proof"))
        #expect(text.contains("Content-Type: application/json"))
        #expect(text.components(separatedBy: LoggingMiddleware.redactionMarker).count - 1 == 5)
    }

    @Test("invitation codes in paths are redacted")
    func invitationCodeRedacted() async throws {
        let capture = LogCapture()
        let transport = FakeTransport { _ in errorResponse(.notFound, code: "invitation_not_found") }
        let session = TokenSession(store: InMemorySecureStore())
        try await session.update(sessionTokens(access: "tok", refresh: nil))
        let configuration = try APIClientConfiguration(
            baseURL: testBaseURL,
            transport: transport,
            logger: capture.logger(level: .debug),
            retryPolicy: .disabled
        )
        let client = APIClient(configuration: configuration, session: session)
        _ = try? await client.perform { try await $0.revokeInvitation(path: .init(code: "K7QM-3XPA")) }
        #expect(capture.text.contains("/vault/invitations/<redacted>/revoke"))
        #expect(!capture.text.contains("K7QM-3XPA"))
        #expect(await transport.log.requests.first?.path == "/vault/invitations/K7QM-3XPA/revoke")
    }

    @Test("the query string is not logged")
    func queryNotLogged() {
        #expect(LoggingMiddleware.pathWithoutQuery("/proxy/a/b?api_key=secret#frag") == "/proxy/a/b")
        #expect(LoggingMiddleware.pathWithoutQuery("/auth/me") == "/auth/me")
    }
}
