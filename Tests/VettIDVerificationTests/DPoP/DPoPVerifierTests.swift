// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import Foundation
import Testing
import VettIDCore
import VettIDCrypto
import VettIDVerification

@Suite struct DPoPVerifierTests {
    let forge = ProofForge()

    @Test func acceptsAWellFormedProof() async throws {
        let proof = try await forge.sign()
        let verified = try await makeVerifier().verify(.forged(proof))
        #expect(verified.thumbprint == forge.signer.publicJWK.thumbprint)
    }

    @Test func refusesMissingOrMultipleHeaders() async throws {
        let proof = try await forge.sign()
        #expect(
            await refusal(makeVerifier(), DPoPRequest(proofHeaderValues: [], method: "POST", targetURI: ProofForge.uri))
                == .missingProof)
        #expect(
            await refusal(
                makeVerifier(),
                DPoPRequest(proofHeaderValues: [proof, proof], method: "POST", targetURI: ProofForge.uri))
                == .multipleProofs)
    }

    @Test func refusesOversizedProof() async throws {
        let proof = try await forge.sign()
        #expect(await refusal(makeVerifier(configuration: .init(maxProofBytes: 200)), .forged(proof)) == .proofTooLarge)
        let padded = try await forge.sign(
            claims: forge.claims() + [("pad", .string(String(repeating: "a", count: 5000)))])
        #expect(await refusal(makeVerifier(), .forged(padded)) == .proofTooLarge)
    }

    @Test func refusesMalformedJWS() async throws {
        let header = String(decoding: JSONValue.object(forge.header).serialized(), as: UTF8.self)
        let verifier = makeVerifier()
        #expect(await refusal(verifier, .forged("abc.def")) == .malformedProof)
        #expect(await refusal(verifier, .forged("a.b.c.d")) == .malformedProof)
        #expect(
            await refusal(verifier, .forged(ProofForge.raw(header: "not json", payload: "{}", signature: [1])))
                == .malformedProof)
        #expect(
            await refusal(verifier, .forged(ProofForge.raw(header: header, payload: "[1]", signature: [1])))
                == .malformedProof)
        // A duplicate member hides a second typ.
        let duplicate = #"{"typ":"dpop+jwt","typ":"JWT","alg":"ES256"}"#
        #expect(
            await refusal(verifier, .forged(ProofForge.raw(header: duplicate, payload: "{}", signature: [1])))
                == .malformedProof)
        let proof = try await forge.sign()
        #expect(await refusal(verifier, .forged(proof + "=")) == .malformedProof)
        let crit = try await forge.sign(header: forge.header + [("crit", .array([.string("exp")]))])
        #expect(await refusal(verifier, .forged(crit)) == .malformedProof)
    }

    @Test func refusesWrongType() async throws {
        for typ: JSONValue in [.string("JWT"), .string("at+jwt"), .string("dpop"), .string("dpop+jwt "), .integer(1)] {
            let proof = try await forge.sign(header: [("typ", typ)] + forge.header.dropFirst())
            #expect(await refusal(makeVerifier(), .forged(proof)) == .invalidType)
        }
        let noType = try await forge.sign(header: Array(forge.header.dropFirst()))
        #expect(await refusal(makeVerifier(), .forged(noType)) == .invalidType)
    }

    @Test(arguments: ["DPoP+JWT", "application/dpop+jwt"])
    func acceptsEquivalentMediaTypes(typ: String) async throws {
        let proof = try await forge.sign(header: [("typ", .string(typ))] + forge.header.dropFirst())
        #expect(await refusal(makeVerifier(), .forged(proof)) == nil)
    }

    @Test func refusesAlgorithmsOutsideTheAllowlist() async throws {
        let jwk = String(decoding: forge.signer.publicJWK.json.serialized(), as: UTF8.self)
        let payload = String(decoding: JSONValue.object(forge.claims()).serialized(), as: UTF8.self)
        // alg none with an empty signature.
        let none = ProofForge.raw(
            header: #"{"typ":"dpop+jwt","alg":"none","jwk":\#(jwk)}"#, payload: payload, signature: [])
        #expect(await refusal(makeVerifier(), .forged(none)) == .unsupportedAlgorithm)
        // HS256 keyed with the public key's bytes (the classic key-confusion forgery).
        let hsHeader = #"{"typ":"dpop+jwt","alg":"HS256","jwk":\#(jwk)}"#
        let input = Base64URL.encode(Array(hsHeader.utf8)) + "." + Base64URL.encode(Array(payload.utf8))
        let mac = HMAC<SHA256>.authenticationCode(for: Array(input.utf8), using: SymmetricKey(data: Array(jwk.utf8)))
        #expect(await refusal(makeVerifier(), .forged(input + "." + Base64URL.encode(mac))) == .unsupportedAlgorithm)
        // ES256 signed, but ES256 is not in this server's allowlist.
        let proof = try await forge.sign()
        #expect(
            await refusal(makeVerifier(configuration: .init(allowedAlgorithms: ["ES384"])), .forged(proof))
                == .unsupportedAlgorithm)
        let missing = try await forge.sign(header: forge.header.filter { $0.0 != "alg" })
        #expect(await refusal(makeVerifier(), .forged(missing)) == .unsupportedAlgorithm)
    }

    @Test func refusesAKeyThatDoesNotMatchTheAlgorithm() async throws {
        let jwk = forge.signer.publicJWK
        let p384: JSONValue = .object([
            ("kty", .string("EC")), ("crv", .string("P-384")), ("x", .string(jwk.x)), ("y", .string(jwk.y)),
        ])
        let okp: JSONValue = .object([("kty", .string("OKP")), ("crv", .string("Ed25519")), ("x", .string(jwk.x))])
        for key in [p384, okp] {
            let proof = try await forge.sign(header: Array(forge.header.prefix(2)) + [("jwk", key)])
            #expect(await refusal(makeVerifier(), .forged(proof)) == .keyAlgorithmMismatch)
        }
    }

    @Test func refusesPrivateMembersInTheKey() async throws {
        let privateKey = P256.Signing.PrivateKey()
        let signer = SoftwareDPoPSigner(privateKey: privateKey)
        let withD = JSONValue.object(
            (signer.publicJWK.json.objectMembers ?? []) + [
                ("d", .string(Base64URL.encode(privateKey.rawRepresentation)))
            ])
        let proof = try await ES256.compactJWS(
            header: .object([("typ", .string("dpop+jwt")), ("alg", .string("ES256")), ("jwk", withD)]),
            payload: .object(forge.claims()),
            signer: signer
        )
        #expect(await refusal(makeVerifier(), .forged(proof)) == .privateKeyInJWK)
    }

    @Test func refusesAnInvalidKey() async throws {
        let other = SoftwareDPoPSigner().publicJWK
        let offCurve: JSONValue = .object([
            ("kty", .string("EC")), ("crv", .string("P-256")), ("x", .string(forge.signer.publicJWK.x)),
            ("y", .string(other.y)),
        ])
        let proof = try await forge.sign(header: Array(forge.header.prefix(2)) + [("jwk", offCurve)])
        #expect(await refusal(makeVerifier(), .forged(proof)) == .invalidKey)
        let noKey = try await forge.sign(header: Array(forge.header.prefix(2)))
        #expect(await refusal(makeVerifier(), .forged(noKey)) == .invalidKey)
    }

    @Test func refusesABadSignature() async throws {
        // Signed by another key than the one in the header.
        let other = SoftwareDPoPSigner()
        let proof = try await ES256.compactJWS(
            header: .object(forge.header), payload: .object(forge.claims()), signer: other)
        #expect(await refusal(makeVerifier(), .forged(proof)) == .invalidSignature)
        // A DER signature instead of raw r||s.
        let input = CompactJWS.signingInput(header: .object(forge.header), payload: .object(forge.claims()))
        let der = try P256.Signing.PrivateKey().signature(for: Array(input.utf8)).derRepresentation
        #expect(await refusal(makeVerifier(), .forged(input + "." + Base64URL.encode(der))) == .invalidSignature)
    }

    @Test func refusesMissingOrMistypedClaims() async throws {
        for name in ["jti", "htm", "htu", "iat"] {
            let proof = try await forge.sign(claims: forge.claims().filter { $0.0 != name })
            #expect(await refusal(makeVerifier(), .forged(proof)) == .missingClaim)
        }
        let stringIAT = try await forge.sign(
            claims: forge.claims().map { $0.0 == "iat" ? ("iat", .string("1700000000")) : $0 })
        #expect(await refusal(makeVerifier(), .forged(stringIAT)) == .invalidClaim)
        let emptyJTI = try await forge.sign(claims: forge.claims(jti: ""))
        #expect(await refusal(makeVerifier(), .forged(emptyJTI)) == .invalidClaim)
    }

    @Test func refusesAnotherMethod() async throws {
        let proof = try await forge.sign(claims: forge.claims(htm: "GET"))
        #expect(await refusal(makeVerifier(), .forged(proof)) == .methodMismatch)
        let lower = try await forge.sign(claims: forge.claims(htm: "post"))
        #expect(await refusal(makeVerifier(), .forged(lower)) == .methodMismatch)
    }

    @Test(arguments: [
        "https://evil.example.com/token",  // other host
        "https://api.example.com:8443/token",  // other port
        "http://api.example.com/token",  // other scheme
        "https://api.example.com/other",  // other path
        "https://api.example.com/Token",  // path case is significant
        "https://api.example.com/token/",  // trailing slash is another path
    ])
    func refusesAnotherTargetURI(htu: String) async throws {
        let proof = try await forge.sign(claims: forge.claims(htu: htu))
        #expect(await refusal(makeVerifier(), .forged(proof)) == .targetURIMismatch)
    }

    @Test(arguments: [
        "HTTPS://API.EXAMPLE.COM/token", "https://api.example.com:443/token", "https://api.example.com/a/../token",
        "https://api.example.com/%74oken", "https://api.example.com/token?x=1#frag",
    ])
    func acceptsEquivalentTargetURIs(htu: String) async throws {
        let proof = try await forge.sign(claims: forge.claims(htu: htu))
        #expect(await refusal(makeVerifier(), .forged(proof)) == nil)
    }

    @Test func refusesAnInvalidTargetURI() async throws {
        let proof = try await forge.sign(claims: forge.claims(htu: "/token"))
        #expect(await refusal(makeVerifier(), .forged(proof)) == .invalidTargetURI)
    }

    @Test func refusesIssuedAtOutsideTheWindow() async throws {
        let old = try await forge.sign(claims: forge.claims(iat: ProofForge.now - 61))
        #expect(await refusal(makeVerifier(), .forged(old)) == .issuedTooLongAgo)
        let future = try await forge.sign(claims: forge.claims(iat: ProofForge.now + 6))
        #expect(await refusal(makeVerifier(), .forged(future)) == .issuedInFuture)
        let edgeOld = try await forge.sign(claims: forge.claims(iat: ProofForge.now - 60))
        #expect(await refusal(makeVerifier(), .forged(edgeOld)) == nil)
        let edgeFuture = try await forge.sign(claims: forge.claims(iat: ProofForge.now + 5))
        #expect(await refusal(makeVerifier(), .forged(edgeFuture)) == nil)
    }

    @Test func anIssuedAtRefusalSaysHowFarOffTheClockIs() async throws {
        let old = try await forge.sign(claims: forge.claims(iat: ProofForge.now - 75))
        let tooOld = await #expect(throws: DPoPError.self) { try await makeVerifier().verify(.forged(old)) }
        #expect(tooOld?.reason == "iat is 75 s before the server's time (window 60 s)")
        let ahead = try await forge.sign(claims: forge.claims(iat: ProofForge.now + 9))
        let future = await #expect(throws: DPoPError.self) { try await makeVerifier().verify(.forged(ahead)) }
        #expect(future?.reason == "iat is 9 s after the server's time (skew 5 s)")
        // Any finite iat is refused with a reason, none traps while writing it.
        for literal in ["-1e300", "1e300", "-9.2233720368547758e18", "1.7976931348623157e308"] {
            let claims = forge.claims().map { $0.0 == "iat" ? ("iat", JSONValue.number(literal)) : $0 }
            let extreme = try await forge.sign(claims: claims)
            let code = await refusal(makeVerifier(), .forged(extreme))
            #expect(code == (literal.hasPrefix("-") ? .issuedTooLongAgo : .issuedInFuture), "\(literal)")
        }
    }

    @Test func enforcesServerNonces() async throws {
        let issuer = DPoPNonceIssuer(key: SymmetricKey(size: .bits256), window: .seconds(300))
        let now = Date(timeIntervalSince1970: TimeInterval(ProofForge.now))
        let required = DPoPVerifier.Configuration(requireNonce: true)

        let withoutNonce = try await forge.sign()
        let missing = makeVerifier(configuration: required, nonces: issuer)
        let error = await #expect(throws: DPoPError.self) { try await missing.verify(.forged(withoutNonce)) }
        #expect(error?.code == .nonceRequired)
        #expect(error?.oauthError == "use_dpop_nonce")

        let good = try await forge.sign(claims: forge.claims() + [("nonce", .string(issuer.issue(now: now)))])
        let verified = try await makeVerifier(configuration: required, nonces: issuer).verify(.forged(good))
        #expect(verified.nonce == issuer.issue(now: now))

        let otherServer = DPoPNonceIssuer(key: SymmetricKey(size: .bits256))
        let wrong = try await forge.sign(claims: forge.claims() + [("nonce", .string(otherServer.issue(now: now)))])
        #expect(await refusal(makeVerifier(configuration: required, nonces: issuer), .forged(wrong)) == .nonceInvalid)

        let stale = try await forge.sign(
            claims: forge.claims() + [("nonce", .string(issuer.issue(now: now.addingTimeInterval(-900))))])
        #expect(await refusal(makeVerifier(configuration: required, nonces: issuer), .forged(stale)) == .nonceStale)

        // A nonce this verifier cannot check is refused even when nonces are optional.
        #expect(await refusal(makeVerifier(), .forged(good)) == .nonceInvalid)
        // Other refusals are invalid_dpop_proof.
        #expect(DPoPError(.invalidSignature, "").oauthError == "invalid_dpop_proof")
    }

    @Test func refusesReplayPerTargetURIAndOversizedJTI() async throws {
        let cache = InMemoryDPoPReplayCache()
        let verifier = makeVerifier(cache: cache)
        let proof = try await forge.sign(claims: forge.claims(jti: "fixed-jti"))
        #expect(await refusal(verifier, .forged(proof)) == nil)
        #expect(await refusal(verifier, .forged(proof)) == .replayedProof)
        // The same jti for another URI is another entry.
        let otherURI = try await forge.sign(
            claims: forge.claims(jti: "fixed-jti", htu: "https://api.example.com/other"))
        #expect(await refusal(verifier, .forged(otherURI, uri: "https://api.example.com/other")) == nil)

        let long = try await forge.sign(claims: forge.claims(jti: String(repeating: "j", count: 129)))
        #expect(await refusal(verifier, .forged(long)) == .jtiTooLong)
        #expect(cache.count == 2)
    }

    @Test func aRefusedProofDoesNotUseUpItsJTI() async throws {
        let token = "access-token"
        let proof = try await forge.sign(
            claims: forge.claims(jti: "once") + [("ath", .string(DPoPProofBuilder.accessTokenHash(token)))])
        let cache = InMemoryDPoPReplayCache()
        let verifier = makeVerifier(cache: cache)
        let wrongToken = DPoPRequest(
            proof: proof, method: ProofForge.method, targetURI: ProofForge.uri, accessToken: "other-token")
        #expect(await refusal(verifier, wrongToken) == .accessTokenHashMismatch)
        #expect(cache.count == 0)
        let right = DPoPRequest(proof: proof, method: ProofForge.method, targetURI: ProofForge.uri, accessToken: token)
        #expect(await refusal(verifier, right) == nil)
        #expect(await refusal(verifier, right) == .replayedProof)
    }

    @Test func concurrentCopiesOfOneProofPassOnce() async throws {
        let proof = try await forge.sign()
        let verifier = makeVerifier()
        let accepted = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<20 { group.addTask { await refusal(verifier, .forged(proof)) == nil } }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(accepted == 1)
    }

    @Test func checksAccessTokenHashAndKeyBinding() async throws {
        let token = "token-value"
        let withoutATH = try await forge.sign()
        #expect(
            await refusal(
                makeVerifier(),
                DPoPRequest(proof: withoutATH, method: ProofForge.method, targetURI: ProofForge.uri, accessToken: token)
            ) == .accessTokenHashMissing)
        let wrongATH = try await forge.sign(
            claims: forge.claims() + [("ath", .string(DPoPProofBuilder.accessTokenHash("other")))])
        #expect(
            await refusal(
                makeVerifier(),
                DPoPRequest(proof: wrongATH, method: ProofForge.method, targetURI: ProofForge.uri, accessToken: token))
                == .accessTokenHashMismatch)
        let good = try await forge.sign(
            claims: forge.claims() + [("ath", .string(DPoPProofBuilder.accessTokenHash(token)))])
        let otherKey = SoftwareDPoPSigner().publicJWK.thumbprint
        let mismatch = await #expect(throws: DPoPError.self) {
            try await makeVerifier().verify(
                DPoPRequest(
                    proof: good, method: ProofForge.method, targetURI: ProofForge.uri, accessToken: token,
                    boundKeyThumbprint: otherKey))
        }
        #expect(mismatch?.code == .keyBindingMismatch)
        #expect(mismatch?.oauthError == "invalid_token")
        let bound = DPoPRequest(
            proof: good, method: ProofForge.method, targetURI: ProofForge.uri, accessToken: token,
            boundKeyThumbprint: forge.signer.publicJWK.thumbprint)
        #expect(await refusal(makeVerifier(), bound) == nil)
    }
}
