// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import Foundation
import Testing
import VettIDCrypto
import VettIDTestSupport
import VettIDVerification

@Suite struct DPoPFixtureTests {
    struct Fixture: Decodable {
        struct Proof: Decodable {
            let name: String
            let compact: String
            let htm: String
            let htu: String
            let now: Int64
            let access_token: String?
            let expected_ath: String?
            let signature_b64url: String
        }
        let jwk_thumbprint: String
        let access_token: String
        let proofs: [Proof]
    }

    static func fixture() throws -> Fixture {
        try TestFixtures.decode(Fixture.self, from: "dpop/rfc9449-examples.json")
    }

    @Test func rfcProofsVerifyAtTheirFixedTime() async throws {
        let fixture = try Self.fixture()
        #expect(fixture.proofs.count == 2)
        for proof in fixture.proofs {
            let verifier = makeVerifier(now: proof.now)
            let verified = try await verifier.verify(
                DPoPRequest(
                    proof: proof.compact,
                    method: proof.htm,
                    targetURI: proof.htu,
                    accessToken: proof.access_token,
                    boundKeyThumbprint: proof.access_token == nil ? nil : fixture.jwk_thumbprint
                )
            )
            #expect(verified.thumbprint == fixture.jwk_thumbprint)
            #expect(verified.issuedAt == Date(timeIntervalSince1970: TimeInterval(proof.now)))
            #expect(proof.compact.hasSuffix("." + proof.signature_b64url))
        }
    }

    @Test func athRecomputes() throws {
        let fixture = try Self.fixture()
        let resource = try #require(fixture.proofs.first { $0.name == "resource_request" })
        #expect(DPoPProofBuilder.accessTokenHash(fixture.access_token) == resource.expected_ath)
        #expect(DPoPProofBuilder.accessTokenHash(fixture.access_token) == "fUHyO2r2Z3DZ53EsNrWBb0xWXoaNy59IiKCAqksmQEo")
    }

    @Test func rfcProofsFailWithAnotherMethodURIOrTime() async throws {
        let fixture = try Self.fixture()
        for proof in fixture.proofs {
            let otherMethod = proof.htm == "GET" ? "POST" : "GET"
            #expect(
                await refusal(
                    makeVerifier(now: proof.now),
                    .init(
                        proof: proof.compact, method: otherMethod, targetURI: proof.htu, accessToken: proof.access_token
                    )) == .methodMismatch)
            #expect(
                await refusal(
                    makeVerifier(now: proof.now),
                    .init(
                        proof: proof.compact, method: proof.htm, targetURI: proof.htu + "x",
                        accessToken: proof.access_token)) == .targetURIMismatch)
            #expect(
                await refusal(
                    makeVerifier(now: proof.now),
                    .init(
                        proof: proof.compact, method: proof.htm, targetURI: "https://evil.example.com/token",
                        accessToken: proof.access_token)) == .targetURIMismatch)
            #expect(
                await refusal(
                    makeVerifier(now: proof.now + 3600),
                    .init(
                        proof: proof.compact, method: proof.htm, targetURI: proof.htu, accessToken: proof.access_token))
                    == .issuedTooLongAgo)
            #expect(
                await refusal(
                    makeVerifier(now: proof.now - 3600),
                    .init(
                        proof: proof.compact, method: proof.htm, targetURI: proof.htu, accessToken: proof.access_token))
                    == .issuedInFuture)
            // Today's clock: years after iat.
            let today = DPoPVerifier(replayCache: InMemoryDPoPReplayCache())
            #expect(
                await refusal(
                    today,
                    .init(
                        proof: proof.compact, method: proof.htm, targetURI: proof.htu, accessToken: proof.access_token))
                    == .issuedTooLongAgo)
        }
    }

    @Test func rfcProofWithAChangedClaimFailsTheSignature() async throws {
        let fixture = try Self.fixture()
        for proof in fixture.proofs {
            let parts = proof.compact.split(separator: ".").map(String.init)
            let claimBytes = try #require(Base64URL.decode(parts[1]))
            let claims = try #require(JSONValue.parse(claimBytes))
            let members = try #require(claims.objectMembers)
            let changed = JSONValue.object(members.map { $0.0 == "jti" ? ($0.0, .string("changed")) : $0 })
            let forged = parts[0] + "." + Base64URL.encode(changed.serialized()) + "." + parts[2]
            #expect(
                await refusal(
                    makeVerifier(now: proof.now),
                    .init(proof: forged, method: proof.htm, targetURI: proof.htu, accessToken: proof.access_token))
                    == .invalidSignature)
        }
    }

    @Test func resourceProofRefusesAnotherTokenOrKeyBinding() async throws {
        let fixture = try Self.fixture()
        let proof = try #require(fixture.proofs.first { $0.name == "resource_request" })
        #expect(
            await refusal(
                makeVerifier(now: proof.now),
                .init(proof: proof.compact, method: proof.htm, targetURI: proof.htu, accessToken: "another-token"))
                == .accessTokenHashMismatch)
        #expect(
            await refusal(
                makeVerifier(now: proof.now),
                .init(
                    proof: proof.compact, method: proof.htm, targetURI: proof.htu, accessToken: fixture.access_token,
                    boundKeyThumbprint: "AAAA")) == .keyBindingMismatch)
        // The token-request proof has no ath, so it cannot go with an access token.
        let tokenProof = try #require(fixture.proofs.first { $0.name == "token_request" })
        #expect(
            await refusal(
                makeVerifier(now: tokenProof.now),
                .init(
                    proof: tokenProof.compact, method: tokenProof.htm, targetURI: tokenProof.htu,
                    accessToken: fixture.access_token)) == .accessTokenHashMissing)
    }
}
