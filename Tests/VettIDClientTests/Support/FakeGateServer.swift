// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes
import OpenAPIRuntime
import VettIDAttestation
import VettIDCore
import VettIDCrypto
import VettIDSoftwareAttestation
import VettIDVerification

@testable import VettIDClient

/// Accepts exactly one current nonce (the fake Gate rotates it).
actor RotatingNonce: DPoPNonceValidator {
    private(set) var current = "nonce-1"
    private var counter = 1

    func validate(nonce: String, now: Date) async -> DPoPNonceVerdict {
        nonce == current ? .valid : .stale
    }

    func rotate() -> String {
        counter += 1
        current = "nonce-\(counter)"
        return current
    }
}

/// An in-memory Gate behind a fake transport (unit tests only; the live Gate is exercised in Server/Tests).
///
/// It checks what a real Gate checks: every DPoP proof with the real `DPoPVerifier` (nonce required, `ath` and
/// `cnf.jkt` at proxied paths), attestations and assertions with the real `AppAttestVerifier` trusting a software
/// root, single-use challenges, `SHA-256(challenge ‖ jkt)` binding.
actor FakeGateServer {
    static let baseURL = "http://127.0.0.1:9"
    let appID = "ABCDE12345.dev.vettid.gate-tests"
    let authority: SoftwareAttestationAuthority
    let nonces: RotatingNonce
    private let verifier: AppAttestVerifier
    private let proofVerifier: DPoPVerifier
    private var challenges: Set<String> = []
    private var usedChallenges: [String] = []
    private var keys: [String: (publicKey: AttestedKey, counter: UInt32, jkt: String)] = [:]
    private var tokens: [String: String] = [:]
    private var tokenCounter = 0

    private(set) var registerCalls = 0
    private(set) var tokenCalls = 0
    private(set) var proxyCalls = 0
    /// Seconds until issued tokens expire.
    var expiresIn = 300
    /// The `token_type` of issued tokens.
    var tokenType = "DPoP"
    /// Rotate the nonce before the next proxied request (so it gets a `use_dpop_nonce` challenge).
    var rotateNonceBeforeProxy = false
    /// Forget every registered key (as a Gate whose database was reset).
    func forgetKeys() { keys.removeAll() }
    /// Revoke every token (the next proxied call gets 401 invalid_token).
    func revokeTokens() { tokens.removeAll() }
    func set(expiresIn: Int) { self.expiresIn = expiresIn }
    func set(tokenType: String) { self.tokenType = tokenType }
    func set(rotateNonceBeforeProxy: Bool) { self.rotateNonceBeforeProxy = rotateNonceBeforeProxy }
    var challengeLog: [String] { usedChallenges }

    init(clock: any WallClock = SystemWallClock()) throws {
        let authority = try SoftwareAttestationAuthority.generate()
        self.authority = authority
        self.verifier = AppAttestVerifier(
            configuration: .init(
                appID: appID, allowedEnvironments: [.development], trustedRoots: [authority.rootCertificate])
        )
        let nonces = RotatingNonce()
        self.nonces = nonces
        self.proofVerifier = DPoPVerifier(
            configuration: .init(requireNonce: true), replayCache: InMemoryDPoPReplayCache(), nonceValidator: nonces,
            clock: clock)
    }

    func handle(_ request: RecordedRequest) async -> (HTTPResponse, HTTPBody?) {
        let path = String(request.path.prefix { $0 != "?" })
        let body = (try? JSONSerialization.jsonObject(with: request.body)) as? [String: Any] ?? [:]
        let isProxy = path.hasPrefix("/proxy/")
        if isProxy {
            proxyCalls += 1
            if rotateNonceBeforeProxy {
                rotateNonceBeforeProxy = false
                _ = await nonces.rotate()
            }
        }
        var accessToken: String?
        var boundJKT: String?
        if isProxy {
            guard let authorization = request.headers[.authorization], authorization.hasPrefix("DPoP "),
                let jkt = tokens[String(authorization.dropFirst(5))]
            else {
                return await resourceError(code: "invalid_token")
            }
            accessToken = String(authorization.dropFirst(5))
            boundJKT = jkt
        }
        let proof: VerifiedDPoPProof
        do throws(DPoPError) {
            proof = try await proofVerifier.verify(
                DPoPRequest(
                    proofHeaderValues: request.headers[values: dpopField],
                    method: request.method.rawValue,
                    targetURI: Self.baseURL + path,
                    accessToken: accessToken,
                    boundKeyThumbprint: boundJKT
                )
            )
        } catch {
            let code = error.isNonceChallenge ? "use_dpop_nonce" : "invalid_dpop_proof"
            if isProxy { return await resourceError(code: code) }
            let current = await nonces.current
            return errorResponse(.badRequest, code: code, headers: [dpopNonceField: current])
        }
        let currentNonce = await nonces.current
        let nonceHeader: HTTPFields = [dpopNonceField: currentNonce]
        switch (request.method, path) {
        case (.post, "/attest/challenge"):
            let challenge = Base64URL.encode((0..<32).map { _ in UInt8.random(in: 0...255) })
            challenges.insert(challenge)
            return jsonResponse(.created, #"{"challenge":"\#(challenge)","expires_in":300}"#, headers: nonceHeader)
        case (.post, "/attest/register"):
            registerCalls += 1
            guard let challenge = body["challenge"] as? String, consume(challenge),
                let keyIDText = body["key_id"] as? String, let keyID = Data(base64Encoded: keyIDText),
                let objectText = body["attestation_object"] as? String, let object = Data(base64Encoded: objectText),
                let jwk = body["device_key_jwk"] as? [String: Any], let x = jwk["x"] as? String,
                let y = jwk["y"] as? String,
                let deviceKey = try? P256PublicJWK(x: x, y: y), deviceKey.thumbprint == proof.thumbprint,
                let binding = AppAttestClientDataHash.binding(
                    challenge: Base64URL.decode(challenge)!, keyThumbprint: Base64URL.decode(proof.thumbprint)!)
            else { return errorResponse(.badRequest, code: "attestation_invalid") }
            do {
                let attested = try await verifier.verifyAttestation(
                    Array(object), keyID: Array(keyID), clientDataHash: binding)
                keys[keyIDText] = (attested, 0, proof.thumbprint)
            } catch {
                return errorResponse(.badRequest, code: "attestation_invalid")
            }
            return jsonResponse(
                .created, #"{"key_id":"\#(keyIDText)","status":"registered","environment":"software"}"#,
                headers: nonceHeader)
        case (.post, "/token"):
            tokenCalls += 1
            switch body["grant_type"] as? String {
            case "urn:vettid:params:grant-type:development":
                guard body["development_token"] as? String == "dev-token" else {
                    return errorResponse(.badRequest, code: "invalid_grant")
                }
            case "urn:vettid:params:grant-type:app-attest":
                guard let challenge = body["challenge"] as? String, consume(challenge),
                    let keyID = body["key_id"] as? String, let assertionText = body["assertion"] as? String,
                    let assertion = Data(base64Encoded: assertionText)
                else { return errorResponse(.badRequest, code: "invalid_request") }
                guard let key = keys[keyID], key.jkt == proof.thumbprint else {
                    return errorResponse(.unauthorized, code: "assertion_invalid")
                }
                do {
                    let counter = try verifier.verifyAssertion(
                        Array(assertion),
                        clientData: Base64URL.decode(challenge)! + Base64URL.decode(proof.thumbprint)!,
                        publicKey: key.publicKey.publicKey,
                        storedCounter: key.counter
                    )
                    keys[keyID]?.counter = counter
                } catch {
                    return errorResponse(.unauthorized, code: "assertion_invalid")
                }
            default:
                return errorResponse(.badRequest, code: "invalid_request")
            }
            tokenCounter += 1
            let token = "gate-token-\(tokenCounter)"
            tokens[token] = proof.thumbprint
            return jsonResponse(
                .ok,
                #"{"access_token":"\#(token)","token_type":"\#(tokenType)","expires_in":\#(expiresIn)}"#,
                headers: nonceHeader
            )
        default:
            guard isProxy else { return errorResponse(.notFound, code: "not_found") }
            if path == "/proxy/echo/missing" {
                return errorResponse(.notFound, code: "not_found", headers: nonceHeader)
            }
            let echo: [String: Any] = [
                "method": request.method.rawValue,
                "path": request.path,
                "body": String(decoding: request.body, as: UTF8.self),
                "x-custom": request.headers[HTTPField.Name("X-Custom")!] ?? "",
            ]
            let data = try! JSONSerialization.data(withJSONObject: echo, options: [.sortedKeys])
            return (HTTPResponse(status: .ok, headerFields: nonceHeader), HTTPBody(data))
        }
    }

    private func consume(_ challenge: String) -> Bool {
        guard challenges.remove(challenge) != nil else { return false }
        usedChallenges.append(challenge)
        return true
    }

    private func resourceError(code: String) async -> (HTTPResponse, HTTPBody?) {
        let current = await nonces.current
        return errorResponse(
            .unauthorized,
            code: code,
            headers: [.wwwAuthenticate: #"DPoP error="\#(code)", algs="ES256""#, dpopNonceField: current]
        )
    }

    /// A transport that routes to this server.
    nonisolated func transport() -> FakeTransport {
        FakeTransport { request in await self.handle(request) }
    }
}
