// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing
import VettIDClient
import VettIDCore
import VettIDCrypto
import VettIDServer

/// Tokens, nonces and proofs across two instances behind one public origin (as behind a load balancer), sent as
/// raw HTTP so each request goes to the instance the test picks: a login on A refreshes on B with a nonce A
/// issued, a proof A accepted is refused at B, and refresh-token reuse at A of a token B rotated ends the family.
@Suite(.enabled(if: TwoInstances.isAvailable, "needs nats-server and the test PostgreSQL"), .timeLimit(.minutes(3)))
struct TwoInstanceTokenTests {
    static let publicURL = "http://vettid.cluster.test"

    /// A device talking DPoP to either instance, with proofs for the shared public origin.
    struct Device {
        let signer = SoftwareDPoPSigner()
        let transport = DefaultTransport.make()

        func proof(_ method: HTTPRequest.Method, _ path: String, nonce: String?, accessToken: String? = nil)
            async throws -> String
        {
            try await DPoPProofBuilder(signer: signer).proof(
                method: method.rawValue, url: URL(string: publicURL + path)!, accessToken: accessToken, nonce: nonce)
        }

        /// Sends to `server` with the given proof; returns status, body and the response's `DPoP-Nonce`.
        func send(
            _ method: HTTPRequest.Method, _ path: String, to server: LiveServer, proof: String?,
            accessToken: String? = nil, json: [String: String]? = nil
        ) async throws -> (status: Int, body: [String: Any], nonce: String?) {
            var request = HTTPRequest(method: method, scheme: nil, authority: nil, path: path)
            if let proof { request.headerFields[HTTPField.Name("DPoP")!] = proof }
            if let accessToken { request.headerFields[.authorization] = "DPoP \(accessToken)" }
            var body: HTTPBody?
            if let json {
                request.headerFields[.contentType] = "application/json"
                body = HTTPBody(try JSONSerialization.data(withJSONObject: json))
            }
            let (response, responseBody) = try await transport.send(
                request, body: body, baseURL: server.baseURL, operationID: "raw")
            var bytes = Data()
            if let responseBody { bytes = try await Data(collecting: responseBody, upTo: 1 << 20) }
            let object = (try? JSONSerialization.jsonObject(with: bytes)) as? [String: Any] ?? [:]
            return (response.status.code, object, response.headerFields[HTTPField.Name("DPoP-Nonce")!])
        }
    }

    @Test func aLoginOnARefreshesOnBAndProofsAndRefreshTokensAreSpentAcrossInstances() async throws {
        try await TwoInstances.with(publicURL: Self.publicURL) { two in
            let device = Device()
            let credentials = ["email": "two-tokens@example.com", "password": VaultLive.memberPassword]
            #expect(
                try await device.send(.post, "/auth/register", to: two.a, proof: nil, json: credentials).status == 201)

            // Login on A: the first proof has no nonce, A answers with one.
            let challenge = try await device.send(
                .post, "/auth/login", to: two.a, proof: try await device.proof(.post, "/auth/login", nonce: nil),
                json: credentials)
            #expect(challenge.status == 400, "RFC 9449 §8: a token endpoint answers 400 use_dpop_nonce")
            #expect(challenge.body["error"] as? String == "use_dpop_nonce")
            let nonceFromA = try #require(challenge.nonce)
            let login = try await device.send(
                .post, "/auth/login", to: two.a,
                proof: try await device.proof(.post, "/auth/login", nonce: nonceFromA), json: credentials)
            #expect(login.status == 200)
            let firstRefresh = try #require(login.body["refresh_token"] as? String)

            // Refreshed on B with the nonce A issued.
            let refreshed = try await device.send(
                .post, "/auth/refresh", to: two.b,
                proof: try await device.proof(.post, "/auth/refresh", nonce: nonceFromA),
                json: ["refresh_token": firstRefresh])
            #expect(refreshed.status == 200, "B accepts A's nonce and A's refresh token: \(refreshed.body)")
            let access = try #require(refreshed.body["access_token"] as? String)
            let secondRefresh = try #require(refreshed.body["refresh_token"] as? String)

            // A proof A accepted is refused at B.
            let proof = try await device.proof(.get, "/auth/me", nonce: nonceFromA, accessToken: access)
            #expect(try await device.send(.get, "/auth/me", to: two.a, proof: proof, accessToken: access).status == 200)
            let replayed = try await device.send(.get, "/auth/me", to: two.b, proof: proof, accessToken: access)
            #expect(replayed.status == 401, "a replay at another instance: \(replayed.body)")
            // A fresh proof for the same token works at B.
            #expect(
                try await device.send(
                    .get, "/auth/me", to: two.b,
                    proof: try await device.proof(.get, "/auth/me", nonce: nonceFromA, accessToken: access),
                    accessToken: access
                ).status == 200)

            // The refresh token B rotated is presented again at A: reuse, and the whole family ends.
            let reused = try await device.send(
                .post, "/auth/refresh", to: two.a,
                proof: try await device.proof(.post, "/auth/refresh", nonce: nonceFromA),
                json: ["refresh_token": firstRefresh])
            #expect(reused.status == 400)
            #expect(reused.body["error"] as? String == "invalid_grant")
            let afterReuse = try await device.send(
                .post, "/auth/refresh", to: two.b,
                proof: try await device.proof(.post, "/auth/refresh", nonce: nonceFromA),
                json: ["refresh_token": secondRefresh])
            #expect(afterReuse.status == 400, "the family's newest token is dead too")
        }
    }
}
