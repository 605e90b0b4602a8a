// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import Foundation
import Testing
import VettIDCore
import VettIDCrypto
import VettIDTestSupport
import VettIDVerification

@Suite struct DPoPProofBuilderTests {
    let signer = SoftwareDPoPSigner()
    let now = Date(timeIntervalSince1970: 1_700_000_000)

    func builder() -> DPoPProofBuilder {
        let now = self.now
        return DPoPProofBuilder(signer: signer, clock: .fixed(now))
    }

    @Test func buildsTheRFCShape() async throws {
        let proof = try await builder().proof(
            method: "GET", url: "https://api.example.com/v1/items?limit=5#top", accessToken: "tok", nonce: "n-1")
        let jws = try CompactJWS(parsing: proof)
        #expect(jws.header["typ"]?.stringValue == "dpop+jwt")
        #expect(jws.header["alg"]?.stringValue == "ES256")
        #expect(jws.header["jwk"] == signer.publicJWK.json)
        #expect(jws.header["jwk"]?["d"] == nil)
        #expect(jws.payload["htm"]?.stringValue == "GET")
        #expect(jws.payload["htu"]?.stringValue == "https://api.example.com/v1/items")
        #expect(jws.payload["iat"]?.int64Value == 1_700_000_000)
        #expect(jws.payload["ath"]?.stringValue == DPoPProofBuilder.accessTokenHash("tok"))
        #expect(jws.payload["nonce"]?.stringValue == "n-1")
        let jti = try #require(jws.payload["jti"]?.stringValue)
        #expect(try #require(Base64URL.decode(jti)).count * 8 >= 96)
        #expect(jws.signature.count == 64)
    }

    @Test func acceptsAURL() async throws {
        let url = try #require(URL(string: "https://api.example.com/v1/items?limit=5"))
        let jws = try CompactJWS(parsing: try await builder().proof(method: "GET", url: url))
        #expect(jws.payload["htu"]?.stringValue == "https://api.example.com/v1/items")
    }

    @Test func omitsAthAndNonceWhenNotGiven() async throws {
        let jws = try CompactJWS(
            parsing: try await builder().proof(method: "POST", url: "https://api.example.com/token"))
        #expect(jws.payload["ath"] == nil)
        #expect(jws.payload["nonce"] == nil)
    }

    @Test func jtisAreUnique() async throws {
        var seen = Set<String>()
        for _ in 0..<50 {
            let jws = try CompactJWS(parsing: try await builder().proof(method: "GET", url: "https://a.example/x"))
            seen.insert(try #require(jws.payload["jti"]?.stringValue))
        }
        #expect(seen.count == 50)
    }

    @Test func roundTripsThroughTheVerifier() async throws {
        let issuer = DPoPNonceIssuer(key: SymmetricKey(size: .bits256))
        let nonce = issuer.issue(now: now)
        let proof = try await builder().proof(
            method: "PATCH", url: "https://API.example.com:443/v1/items/7?x=1", accessToken: "tok", nonce: nonce)
        let verifier = DPoPVerifier(
            configuration: .init(requireNonce: true), replayCache: InMemoryDPoPReplayCache(), nonceValidator: issuer,
            clock: .fixed(now))
        let verified = try await verifier.verify(
            DPoPRequest(
                proof: proof, method: "PATCH", targetURI: "https://api.example.com/v1/items/7", accessToken: "tok",
                boundKeyThumbprint: signer.publicJWK.thumbprint)
        )
        #expect(verified.jwk == signer.publicJWK)
        #expect(verified.nonce == nonce)
    }

    /// The claims are written straight into bytes: they must be exactly what `JSONValue` serializes for the same
    /// members in the same order, escapes included, and the `ath` of a token must follow the token when it changes.
    @Test func writesTheClaimsAsJSONValueSerializesThem() async throws {
        let builder = builder()
        for (token, nonce) in [("tok-1", #"n"\1"#), ("tok-2", "n-2"), ("tok-1", "n\u{7F}3")] {
            let proof = try await builder.proof(
                method: "GET", url: #"https://a.example/x"y\z"#, accessToken: token, nonce: nonce)
            let parts = proof.split(separator: ".")
            let payload = try #require(Base64URL.decode(parts[1]))
            let jws = try CompactJWS(parsing: proof)
            let jti = try #require(jws.payload["jti"]?.stringValue)
            let expected = JSONValue.object([
                ("jti", .string(jti)), ("htm", .string("GET")), ("htu", .string(#"https://a.example/x"y\z"#)),
                ("iat", .integer(1_700_000_000)), ("ath", .string(DPoPProofBuilder.accessTokenHash(token))),
                ("nonce", .string(nonce)),
            ])
            #expect(payload == expected.serialized())
            #expect(Base64URL.decode(jti)?.count == 16)
        }
    }

    @Test func refusesUnusableInput() async {
        await #expect(throws: DPoPError(.cannotBuildProof, "the request URL is not an absolute URI with an authority"))
        {
            try await builder().proof(method: "GET", url: "/relative")
        }
        await #expect(throws: DPoPError.self) { try await builder().proof(method: "", url: "https://a.example/") }
    }
}
