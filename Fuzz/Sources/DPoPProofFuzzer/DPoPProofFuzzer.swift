// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// libFuzzer target `dpop-proof`: the compact JWS parser, the DPoP verifier and htu normalization.
//
// The verifier runs at a fixed time against a fixed request (POST https://api.vettid.dev/v1/auth/token),
// with a nonce issuer under a fixed key and a replay cache that never remembers (so a valid seed verifies
// on every run). Modes, chosen by the input:
// - raw (every input): the input is the `DPoP` header value. A proof that verifies must be byte-identical
//   to one of `validProofs` (built once with DPoPProofBuilder and a SoftwareDPoPSigner, committed as seeds);
//   `CompactJWS(parsing:)` agrees with the verifier on malformed_proof, and a parsed JWS is consistent with
//   its text (strict base64url round-trips, signing input, JSON round-trips).
// - edit (input starting with 0xFF): byte 1 picks a valid proof, then each (position u16, byte) triple
//   replaces (byte != 0) or deletes (byte == 0) a character; the result goes through the raw checks.
//   This keeps mutations close to valid proofs whatever the corpus has drifted to.
// - signed header / signed claims (input that is a JSON object): this process signs it with a fresh key B,
//   as the header (when it names typ, alg or jwk) with fixed valid claims, or as the claims under B's valid
//   header, and verifies. The outcome must match the rules written out below: accepted exactly when every
//   header rule (or claims rule) holds, with the claims echoed in the result; refused otherwise with a
//   code of the part that was fuzzed.
// - every input that normalizes as a URI, and every htu claim, must normalize idempotently (with no query or
//   fragment left).

import FuzzSupport
import VettIDCore
import VettIDCrypto
import VettIDVerification

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

@_cdecl("DPoPProofFuzzer_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    if let directory = seedOutputDirectory {
        writeSeeds(to: directory)
        return 0
    }
    selfCheck()
    return runFuzzer(argc, argv, fuzzOne)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    fuzzOne(UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : size))
    return 0
}

// MARK: - Fixed context

private let method = "POST"
private let targetURI = "https://api.vettid.dev/v1/auth/token"
private let accessToken = "fuzz-access-token"
private let now = Date(timeIntervalSince1970: 1_780_000_000)
private let fixedNow = now
private let nonceIssuer = DPoPNonceIssuer(key: .init(data: Array("vettid-fuzz-dpop-nonce-key-0123456789".utf8)))

/// A cache that never holds anything, so every valid proof verifies every time.
private struct ForgetfulReplayCache: DPoPReplayCache {
    func contains(_ key: DPoPReplayKey, now: Date) -> Bool { false }
    func insert(_ key: DPoPReplayKey, expiresAt: Date, now: Date) -> Bool { true }
}

/// The wall clock of the fuzzed verifier and of the seed proofs: it stands at `now`.
private struct FixedWallClock: WallClock {
    func now() -> Date { fixedNow }
}

private let dpopVerifier = DPoPVerifier(
    replayCache: ForgetfulReplayCache(), nonceValidator: nonceIssuer, clock: FixedWallClock())

/// Key A signed the committed proofs (in seed-writing mode only); key B signs fuzzed headers and claims
/// during the run. Nothing B signs reaches libFuzzer's inputs, so a raw input cannot borrow its signatures.
private let keyA = try! SoftwareDPoPSigner(
    rawRepresentation: Array("vettid-fuzz-dpop-key-A-0123456789".utf8.prefix(32)))
private let keyB = try! SoftwareDPoPSigner(
    rawRepresentation: Array("vettid-fuzz-dpop-key-B-0123456789".utf8.prefix(32)))

private func verify(_ request: DPoPRequest) -> Result<VerifiedDPoPProof, DPoPError> {
    runBlocking {
        do throws(DPoPError) {
            return .success(try await dpopVerifier.verify(request))
        } catch {
            return .failure(error)
        }
    }
}

// MARK: - Valid seeds

/// Proofs made by `writeSeeds` with DPoPProofBuilder at `now`; each verifies against the fixed request.
private let validProofs: [String] = [
    "eyJ0eXAiOiJkcG9wK2p3dCIsImFsZyI6IkVTMjU2IiwiandrIjp7Imt0eSI6IkVDIiwiY3J2IjoiUC0yNTYiLCJ4IjoiSWRqNHljMjhESi1QMV9sR2htZF94R0ZYajZFbmI4eWxMYmExYjhVUXVtayIsInkiOiJQaW5KZ2s4N3N4djVwNlF3eHd2Q1FWa25CMXRkU1FPbUwwU2I5NWdjZ1pRIn19.eyJqdGkiOiJrNTFCeXd5cVRjYU5tY21od3FNUEt3IiwiaHRtIjoiUE9TVCIsImh0dSI6Imh0dHBzOi8vYXBpLnZldHRpZC5kZXYvdjEvYXV0aC90b2tlbiIsImlhdCI6MTc4MDAwMDAwMH0.RDPN9g3ps9wsP9gscAJl2994t40m_Fuo75UP_T7w0SQ8Uv3q2OabGtX8EpNxm6KYae76YZmLakayOcIzTsp5xw",
    "eyJ0eXAiOiJkcG9wK2p3dCIsImFsZyI6IkVTMjU2IiwiandrIjp7Imt0eSI6IkVDIiwiY3J2IjoiUC0yNTYiLCJ4IjoiSWRqNHljMjhESi1QMV9sR2htZF94R0ZYajZFbmI4eWxMYmExYjhVUXVtayIsInkiOiJQaW5KZ2s4N3N4djVwNlF3eHd2Q1FWa25CMXRkU1FPbUwwU2I5NWdjZ1pRIn19.eyJqdGkiOiJXMlJ6aHZfNkM1cElwTTktbzhBXzVRIiwiaHRtIjoiUE9TVCIsImh0dSI6Imh0dHBzOi8vYXBpLnZldHRpZC5kZXYvdjEvYXV0aC90b2tlbiIsImlhdCI6MTc4MDAwMDAwMH0.uem547GrOfUf9hYvzcFYJ3eWUNWL3k6kvVfJ9uur1umPlFXqXZZ2ndQNG4gJJAgJHD6-JTs7Wro5Q1-QeHb_lw",
    "eyJ0eXAiOiJkcG9wK2p3dCIsImFsZyI6IkVTMjU2IiwiandrIjp7Imt0eSI6IkVDIiwiY3J2IjoiUC0yNTYiLCJ4IjoiSWRqNHljMjhESi1QMV9sR2htZF94R0ZYajZFbmI4eWxMYmExYjhVUXVtayIsInkiOiJQaW5KZ2s4N3N4djVwNlF3eHd2Q1FWa25CMXRkU1FPbUwwU2I5NWdjZ1pRIn19.eyJqdGkiOiJoZmd3WVBTa0NQR0ZTblZvRWoxcklRIiwiaHRtIjoiUE9TVCIsImh0dSI6Imh0dHBzOi8vYXBpLnZldHRpZC5kZXYvdjEvYXV0aC90b2tlbiIsImlhdCI6MTc4MDAwMDAwMCwiYXRoIjoic2pDeDgwZ0ZyNmZybl9SS29SWC1TWUNrT0M4ZnFDVkVTeExyNW9XWkZsdyJ9.pfgYocLFgJhw2dddqaot2Cy8gn29irgu_xKZhucM3dVfylKTWgk90PrHsa3QeuRLcrRWLzUWmyem-Y6UoiFoeg",
    "eyJ0eXAiOiJkcG9wK2p3dCIsImFsZyI6IkVTMjU2IiwiandrIjp7Imt0eSI6IkVDIiwiY3J2IjoiUC0yNTYiLCJ4IjoiSWRqNHljMjhESi1QMV9sR2htZF94R0ZYajZFbmI4eWxMYmExYjhVUXVtayIsInkiOiJQaW5KZ2s4N3N4djVwNlF3eHd2Q1FWa25CMXRkU1FPbUwwU2I5NWdjZ1pRIn19.eyJqdGkiOiJlNVpUNWVCTGpqbGlLc19NbWNoZVJnIiwiaHRtIjoiUE9TVCIsImh0dSI6Imh0dHBzOi8vYXBpLnZldHRpZC5kZXYvdjEvYXV0aC90b2tlbiIsImlhdCI6MTc4MDAwMDAwMCwibm9uY2UiOiJBQUFBQUFCYWlSWEUxRVY4eFVuVWQ0c2lLNldBQmxGbEcwT3VnY0VpVU9RR0Z1NTduQlJZdGcifQ.xwjWK31zkm7iksQeU-vhEw5Hl9oBi7Coap8uwK1U0s3_91ucZs1EBubopVDOWX_TRPtZEXa9bu9cHn9v5AyD-Q",
    "eyJ0eXAiOiJkcG9wK2p3dCIsImFsZyI6IkVTMjU2IiwiandrIjp7Imt0eSI6IkVDIiwiY3J2IjoiUC0yNTYiLCJ4IjoiSWRqNHljMjhESi1QMV9sR2htZF94R0ZYajZFbmI4eWxMYmExYjhVUXVtayIsInkiOiJQaW5KZ2s4N3N4djVwNlF3eHd2Q1FWa25CMXRkU1FPbUwwU2I5NWdjZ1pRIn19.eyJqdGkiOiJ1MkRCX01xZ01RSlU5T0lOYmZGN1pRIiwiaHRtIjoiUE9TVCIsImh0dSI6Imh0dHBzOi8vYXBpLnZldHRpZC5kZXYvdjEvYXV0aC90b2tlbiIsImlhdCI6MTc4MDAwMDAwMCwiYXRoIjoic2pDeDgwZ0ZyNmZybl9SS29SWC1TWUNrT0M4ZnFDVkVTeExyNW9XWkZsdyIsIm5vbmNlIjoiQUFBQUFBQmFpUlhFMUVWOHhVblVkNHNpSzZXQUJsRmxHME91Z2NFaVVPUUdGdTU3bkJSWXRnIn0.APt41ytjndmFlpKJGVGDB4nEgJ45jAQhCwtOZsxPG2FgI-cusGfRZF3qCC0-k71hQsOT1kzr8OqmJEHVLSClxQ",
    "eyJ0eXAiOiJkcG9wK2p3dCIsImFsZyI6IkVTMjU2IiwiandrIjp7Imt0eSI6IkVDIiwiY3J2IjoiUC0yNTYiLCJ4IjoiSWRqNHljMjhESi1QMV9sR2htZF94R0ZYajZFbmI4eWxMYmExYjhVUXVtayIsInkiOiJQaW5KZ2s4N3N4djVwNlF3eHd2Q1FWa25CMXRkU1FPbUwwU2I5NWdjZ1pRIn19.eyJqdGkiOiJ1a3otMjVlTy1KTkhWZFAzMGxsRHBBIiwiaHRtIjoiUE9TVCIsImh0dSI6IkhUVFBTOi8vQVBJLlZldHRJRC5kZXY6NDQzL3YxLy4veC8uLi9hdXRoLyU3NG9rZW4iLCJpYXQiOjE3ODAwMDAwMDB9.5iyyZkKci1PFQcIRPZqSsynp6pauTTJD_T5YRIdl6j9js6ZnNCsRnysi9pAcawF-N1UR_T8Q6CbBlzdfd0d-Xw",
]

/// Proofs with a valid signature that the fixed request refuses, with the expected code.
private let refusedProofs: [(String, DPoPError.Code)] = [
    (
        "eyJ0eXAiOiJkcG9wK2p3dCIsImFsZyI6IkVTMjU2IiwiandrIjp7Imt0eSI6IkVDIiwiY3J2IjoiUC0yNTYiLCJ4IjoiSWRqNHljMjhESi1QMV9sR2htZF94R0ZYajZFbmI4eWxMYmExYjhVUXVtayIsInkiOiJQaW5KZ2s4N3N4djVwNlF3eHd2Q1FWa25CMXRkU1FPbUwwU2I5NWdjZ1pRIn19.eyJqdGkiOiJ5SHZFU3NLblNsOTRxd3E3dW9PYnV3IiwiaHRtIjoiR0VUIiwiaHR1IjoiaHR0cHM6Ly9hcGkudmV0dGlkLmRldi92MS9hdXRoL3Rva2VuIiwiaWF0IjoxNzgwMDAwMDAwfQ.xmprjB2UJUXJQgDni-dAsFDFL5EDeywoERmvrY4iAXUXYMdxvtaL97qJqb56eVf-PWU9-7LMxPBIIZfGebY_IA",
        .init(rawValue: "htm_mismatch")
    ),
    (
        "eyJ0eXAiOiJkcG9wK2p3dCIsImFsZyI6IkVTMjU2IiwiandrIjp7Imt0eSI6IkVDIiwiY3J2IjoiUC0yNTYiLCJ4IjoiSWRqNHljMjhESi1QMV9sR2htZF94R0ZYajZFbmI4eWxMYmExYjhVUXVtayIsInkiOiJQaW5KZ2s4N3N4djVwNlF3eHd2Q1FWa25CMXRkU1FPbUwwU2I5NWdjZ1pRIn19.eyJqdGkiOiIzNG1pc05QdUNCZzAzX2dwWlE3YzFRIiwiaHRtIjoiUE9TVCIsImh0dSI6Imh0dHBzOi8vYXBpLnZldHRpZC5kZXYvdjEvYXV0aC9vdGhlciIsImlhdCI6MTc4MDAwMDAwMH0.lbfUkTNIJmDmB471KLn3j1yY4XjYGJph6nWu3GwnzsepDG4N8hE00YqlJQF0Lwe1ai37JH4lNMQeWAlxq9Yiow",
        .init(rawValue: "htu_mismatch")
    ),
    (
        "eyJ0eXAiOiJkcG9wK2p3dCIsImFsZyI6IkVTMjU2IiwiandrIjp7Imt0eSI6IkVDIiwiY3J2IjoiUC0yNTYiLCJ4IjoiSWRqNHljMjhESi1QMV9sR2htZF94R0ZYajZFbmI4eWxMYmExYjhVUXVtayIsInkiOiJQaW5KZ2s4N3N4djVwNlF3eHd2Q1FWa25CMXRkU1FPbUwwU2I5NWdjZ1pRIn19.eyJqdGkiOiJWZmlDQ0tkZ21zX01rczlUZi1wY1NBIiwiaHRtIjoiUE9TVCIsImh0dSI6Imh0dHBzOi8vYXBpLnZldHRpZC5kZXYvdjEvYXV0aC90b2tlbiIsImlhdCI6MTc4MDAwMDAwMCwibm9uY2UiOiJBQUFBQUFBQUFBQSJ9.nqVZUx9qzz_DtJx_5eSht1U5I6JcBGxnfMiMz6hxVfoF4uXXUvDXxboqtquFpb3iZq3xsrfuoQLTWdIFaQujBg",
        .init(rawValue: "nonce_invalid")
    ),
]

private func writeSeeds(to directory: String) {
    let builder = DPoPProofBuilder(signer: keyA, clock: FixedWallClock())
    let nonce = nonceIssuer.issue(now: now)
    func build(_ method: String, _ url: String, token: String? = nil, nonce: String? = nil) -> String {
        runBlocking {
            try! await builder.proof(method: method, url: url, accessToken: token, nonce: nonce)
        }
    }
    let valid = [
        ("plain", build(method, targetURI)),
        ("query-dropped", build(method, targetURI + "?grant=refresh#f")),
        ("access-token", build(method, targetURI, token: accessToken)),
        ("nonce", build(method, targetURI, nonce: nonce)),
        ("token-and-nonce", build(method, targetURI, token: accessToken, nonce: nonce)),
        ("unnormalized-htu", build(method, "HTTPS://API.VettID.dev:443/v1/./x/../auth/%74oken")),
    ]
    let refused: [(String, String, DPoPError.Code)] = [
        ("other-method", build("GET", targetURI), .methodMismatch),
        ("other-uri", build(method, "https://api.vettid.dev/v1/auth/other"), .targetURIMismatch),
        ("foreign-nonce", build(method, targetURI, nonce: "AAAAAAAAAAA"), .nonceInvalid),
    ]
    var source = "private let validProofs: [String] = [\n"
    for (name, proof) in valid {
        writeSeed(Array(proof.utf8), named: "valid-\(name)", in: directory)
        source += "    \"\(proof)\",\n"
    }
    source += "]\n\nprivate let refusedProofs: [(String, DPoPError.Code)] = [\n"
    for (name, proof, code) in refused {
        writeSeed(Array(proof.utf8), named: "refused-\(name)", in: directory)
        source += "    (\"\(proof)\", .init(rawValue: \"\(code.rawValue)\")),\n"
    }
    source += "]\n"
    print(source)
    // Edit mode: proof 0 unchanged, one replaced character, one deleted character.
    writeSeed([0xFF, 0x00], named: "edit-none", in: directory)
    writeSeed([0xFF, 0x02, 0x00, 0x30, 0x41], named: "edit-replace", in: directory)
    writeSeed([0xFF, 0x04, 0x01, 0x10, 0x00], named: "edit-delete", in: directory)
    // Signed modes: a header and claims as JSON objects.
    writeSeed(
        JSONValue.object([("typ", .string("dpop+jwt")), ("alg", .string("ES256")), ("jwk", keyB.publicJWK.json)])
            .serialized(), named: "header-json", in: directory)
    writeSeed(validClaims(extra: []).serialized(), named: "claims-json", in: directory)
    writeSeed(
        validClaims(extra: [("ath", .string(DPoPProofBuilder.accessTokenHash(accessToken))), ("nonce", .string(nonce))])
            .serialized(), named: "claims-ath-nonce-json", in: directory)
}

private func validClaims(extra: [(String, JSONValue)]) -> JSONValue {
    .object(
        [
            ("jti", .string("fuzz-jti-0001")), ("htm", .string(method)), ("htu", .string(targetURI)),
            ("iat", .integer(Int64(now.timeIntervalSince1970))),
        ] + extra)
}

private func selfCheck() {
    for proof in validProofs {
        guard case .success = verify(DPoPRequest(proof: proof, method: method, targetURI: targetURI)) else {
            preconditionFailure("a committed valid proof does not verify: regenerate the seeds (Fuzz/corpus/README.md)")
        }
    }
    for (proof, code) in refusedProofs {
        guard case .failure(let error) = verify(DPoPRequest(proof: proof, method: method, targetURI: targetURI)),
            error.code == code
        else {
            preconditionFailure("a committed refused proof is not refused with \(code)")
        }
    }
    precondition(blockingFallbacks == 0, "the verifier suspended; runBlocking is not synchronous here")
}

// MARK: - Fuzzing

func fuzzOne(_ buffer: UnsafeRawBufferPointer) {
    let input = Array(buffer)
    if input.first == 0xFF, input.count >= 2, !validProofs.isEmpty {
        var proof = Array(validProofs[Int(input[1]) % validProofs.count].utf8)
        var index = 2
        while index + 3 <= input.count, !proof.isEmpty {
            let position = Int(bigEndian(input[index..<(index + 2)])) % proof.count
            if input[index + 2] == 0 { proof.remove(at: position) } else { proof[position] = input[index + 2] }
            index += 3
        }
        checkRaw(proof)
        return
    }
    checkRaw(input)
    checkNormalization(String(decoding: input, as: UTF8.self))
    if let json = JSONValue.parse(input), let members = json.objectMembers {
        if members.contains(where: { ["typ", "alg", "jwk"].contains($0.0) }) {
            checkSignedHeader(input, json)
        } else {
            checkSignedClaims(input, json)
        }
    }
}

private func checkRaw(_ bytes: [UInt8]) {
    let proof = String(decoding: bytes, as: UTF8.self)
    let result = verify(DPoPRequest(proof: proof, method: method, targetURI: targetURI))
    trace("raw, \(bytes.count) bytes: \(result.map(\.jti))")
    if case .success = result {
        invariant(
            validProofs.contains(proof) && Array(proof.utf8) == bytes,
            "a proof that is not a committed valid one verified")
    }
    let jws = try? CompactJWS(parsing: proof)
    if case .failure(let error) = result, proof.utf8.count <= dpopVerifier.configuration.maxProofBytes {
        if jws == nil {
            invariant(error.code == .malformedProof, "CompactJWS refuses the proof but the verifier says \(error.code)")
        } else if error.code == .malformedProof {
            invariant(
                jws?.header["crit"] != nil,
                "the verifier says malformed_proof but CompactJWS parses it and it has no crit")
        }
    }
    if let jws { checkJWS(jws, text: Array(proof.utf8)) }
}

/// A parsed JWS is consistent with its text: three strict base64url parts that round-trip, the signing
/// input is the first two parts, and header and payload round-trip through JSON serialization.
private func checkJWS(_ jws: CompactJWS, text: [UInt8]) {
    let parts = text.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
    invariant(parts.count == 3, "a parsed JWS does not have three parts")
    for part in parts {
        let string = String(decoding: part, as: UTF8.self)
        guard let decoded = Base64URL.decode(string) else {
            fatalError("fuzz invariant violated: a parsed part is not base64url")
        }
        invariant(Base64URL.encode(decoded) == string, "base64url is not canonical: two encodings decode alike")
    }
    invariant(
        jws.signingInput == Array(parts[0]) + [UInt8(ascii: ".")] + Array(parts[1]),
        "signingInput is not the first two parts")
    invariant(
        Base64URL.decode(String(decoding: parts[2], as: UTF8.self)) == jws.signature, "signature is not the third part")
    invariant(JSONValue.parse(jws.header.serialized()) == jws.header, "the header does not round-trip through JSON")
    invariant(JSONValue.parse(jws.payload.serialized()) == jws.payload, "the payload does not round-trip through JSON")
}

/// Normalizing is idempotent, and a normalized URI has no query or fragment. (This found the host-case
/// defect fixed on 2026-11-24: `http://%41/` normalized to `http://A/`, and that to `http://a/`.)
private func checkNormalization(_ uri: String) {
    guard let normalized = DPoPTargetURI.normalize(uri) else { return }
    invariant(!normalized.contains("?") && !normalized.contains("#"), "a normalized URI keeps a query or fragment")
    let again = DPoPTargetURI.normalize(normalized)
    invariant(again == normalized, "normalize is not idempotent: \(uri) -> \(normalized) -> \(again ?? "nil")")
}

private func sign(header: [UInt8], claims: [UInt8]) -> String {
    let input = Base64URL.encode(header) + "." + Base64URL.encode(claims)
    let signature = runBlocking { try! await keyB.sign(Array(input.utf8)) }
    return input + "." + Base64URL.encode(signature)
}

/// Codes that only the header can cause.
private let headerCodes: Set<DPoPError.Code> = [
    .malformedProof, .invalidType, .unsupportedAlgorithm, .keyAlgorithmMismatch, .invalidKey, .privateKeyInJWK,
    .invalidSignature, .proofTooLarge,
]

private func checkSignedHeader(_ header: [UInt8], _ json: JSONValue) {
    let proof = sign(header: header, claims: validClaims(extra: []).serialized())
    let jwk = json["jwk"]
    let jwkMembers = jwk?.objectMembers ?? []
    let typ = json["typ"]?.stringValue?.lowercased()
    let expectOK =
        proof.utf8.count <= dpopVerifier.configuration.maxProofBytes
        && json["crit"] == nil
        && (typ == "dpop+jwt" || typ == "application/dpop+jwt")
        && json["alg"] == .string("ES256")
        && jwk?["kty"] == .string("EC") && jwk?["crv"] == .string("P-256")
        && !jwkMembers.contains(where: { P256PublicJWK.privateMemberNames.contains($0.0) })
        && jwk?["x"] == .string(keyB.publicJWK.x) && jwk?["y"] == .string(keyB.publicJWK.y)
    let result = verify(DPoPRequest(proof: proof, method: method, targetURI: targetURI))
    trace("signed header: \(result.map(\.thumbprint))")
    switch result {
    case .success(let verified):
        invariant(expectOK, "a header that breaks a rule verified")
        invariant(
            verified.jwk == keyB.publicJWK && verified.thumbprint == keyB.publicJWK.thumbprint,
            "the verified key is not the signing key")
    case .failure(let error):
        invariant(!expectOK, "a valid header was refused: \(error)")
        invariant(headerCodes.contains(error.code), "a fuzzed header was refused with a claims code \(error.code)")
    }
}

private func checkSignedClaims(_ claimsBytes: [UInt8], _ claims: JSONValue) {
    let header = JSONValue.object([
        ("typ", .string("dpop+jwt")), ("alg", .string("ES256")), ("jwk", keyB.publicJWK.json),
    ])
    let proof = sign(header: header.serialized(), claims: claimsBytes)
    let bound = claims["ath"] != nil
    let request = DPoPRequest(
        proof: proof, method: method, targetURI: targetURI,
        accessToken: bound ? accessToken : nil, boundKeyThumbprint: bound ? keyB.publicJWK.thumbprint : nil)
    if let htu = claims["htu"]?.stringValue { checkNormalization(htu) }

    func nonEmpty(_ name: String) -> String? {
        guard let value = claims[name]?.stringValue, !value.isEmpty else { return nil }
        return value
    }
    let seconds = now.timeIntervalSince1970
    let iat = claims["iat"]?.doubleValue
    let nonceOK: Bool = {
        guard let nonce = claims["nonce"] else { return true }
        guard let value = nonce.stringValue else { return false }
        return nonceIssuer.validate(nonce: value, now: now) == .valid
    }()
    let jti = nonEmpty("jti")
    let htu = nonEmpty("htu")
    let expectOK =
        proof.utf8.count <= dpopVerifier.configuration.maxProofBytes
        && jti != nil && jti!.utf8.count <= dpopVerifier.configuration.maxJTIBytes
        && nonEmpty("htm") == method
        && htu.flatMap(DPoPTargetURI.normalize) != nil
        && htu.flatMap(DPoPTargetURI.normalize) == DPoPTargetURI.normalize(targetURI)
        && iat != nil && iat!.isFinite && iat! >= seconds - 60 && iat! <= seconds + 5
        && nonceOK
        && (!bound || claims["ath"] == .string(DPoPProofBuilder.accessTokenHash(accessToken)))
    let result = verify(request)
    trace("signed claims: \(result.map(\.jti))")
    switch result {
    case .success(let verified):
        invariant(expectOK, "claims that break a rule verified")
        invariant(verified.jti == jti && verified.claims == claims, "the result does not echo the claims")
        invariant(verified.issuedAt == Date(timeIntervalSince1970: iat!), "issuedAt is not iat")
        invariant(verified.nonce == claims["nonce"]?.stringValue, "nonce is not echoed")
        invariant(verified.thumbprint == keyB.publicJWK.thumbprint, "the verified key is not the signing key")
    case .failure(let error):
        invariant(!expectOK, "valid claims were refused: \(error)")
        invariant(
            !headerCodes.subtracting([.proofTooLarge]).contains(error.code),
            "fuzzed claims were refused with a header code \(error.code)")
        invariant(error.code != .replayedProof && error.code != .keyBindingMismatch, "impossible refusal \(error.code)")
    }
}
