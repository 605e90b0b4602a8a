// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import Foundation
import VettIDCore
import VettIDCrypto
import VettIDTestSupport
import VettIDVerification

/// Builds DPoP proofs with arbitrary header and claims, to forge inputs the verifier must refuse.
struct ProofForge {
    static let now: Int64 = 1_700_000_000
    static let method = "POST"
    static let uri = "https://api.example.com/token"

    let signer = SoftwareDPoPSigner()

    var header: [(String, JSONValue)] {
        [("typ", .string("dpop+jwt")), ("alg", .string("ES256")), ("jwk", signer.publicJWK.json)]
    }

    func claims(
        jti: String = UUID().uuidString,
        htm: String = ProofForge.method,
        htu: String = ProofForge.uri,
        iat: Int64 = ProofForge.now
    ) -> [(String, JSONValue)] {
        [("jti", .string(jti)), ("htm", .string(htm)), ("htu", .string(htu)), ("iat", .integer(iat))]
    }

    func sign(header: [(String, JSONValue)]? = nil, claims: [(String, JSONValue)]? = nil) async throws -> String {
        try await ES256.compactJWS(
            header: .object(header ?? self.header), payload: .object(claims ?? self.claims()), signer: signer)
    }

    /// A JWS with the given raw header and payload bytes and signature bytes.
    static func raw(header: String, payload: String, signature: [UInt8]) -> String {
        Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(payload.utf8)) + "."
            + Base64URL.encode(signature)
    }
}

func makeVerifier(
    configuration: DPoPVerifier.Configuration = .init(),
    cache: InMemoryDPoPReplayCache = InMemoryDPoPReplayCache(),
    nonces: (any DPoPNonceValidator)? = nil,
    now: Int64 = ProofForge.now
) -> DPoPVerifier {
    DPoPVerifier(
        configuration: configuration, replayCache: cache, nonceValidator: nonces,
        clock: .fixed(Date(timeIntervalSince1970: TimeInterval(now))))
}

/// The refusal code, or `nil` when the proof is accepted.
func refusal(_ verifier: DPoPVerifier, _ request: DPoPRequest) async -> DPoPError.Code? {
    do throws(DPoPError) {
        _ = try await verifier.verify(request)
        return nil
    } catch {
        return error.code
    }
}

extension DPoPRequest {
    static func forged(_ proof: String, method: String = ProofForge.method, uri: String = ProofForge.uri) -> DPoPRequest
    {
        DPoPRequest(proof: proof, method: method, targetURI: uri)
    }
}
