// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes
import OpenAPIRuntime
import VettIDAttestation
import VettIDCrypto
import VettIDSoftwareAttestation
import VettIDVerification

@testable import VettIDClient

/// An in-memory vault server behind a fake transport (unit tests only).
///
/// It checks what the real server checks: every DPoP proof with the real `DPoPVerifier` (nonce required; `ath`
/// and the session's `jkt` when a token is presented), App Attest objects with the real `AppAttestVerifier`
/// (software root; `SHA-256(challenge ‖ jkt)` binding), single-use transaction keys opened with the real HPKE
/// envelope and the exact context, the LAT, the credential's key version.
actor FakeVaultServer {
    static let baseURL = "http://127.0.0.1:9"
    static let invitationCode = "K7QM-3XPA"
    static let appID = "ABCDE12345.dev.vettid.vault-tests"
    let authority: SoftwareAttestationAuthority
    let nonces: RotatingNonce
    private let verifier: AppAttestVerifier
    private let proofVerifier: DPoPVerifier

    struct Session {
        var id: String
        var token: String
        var jkt: String
        var step: String
        var challenge: String?
        var attestationFormat: String?
    }

    // Configuration.
    var attestationRequired = true
    var passwordForAuthentication: String?
    /// A LAT to answer instead of the real one (a phishing server).
    var forgedLAT: (latID: String, token: String, version: Int)?
    /// Answers `(status, code)` for the next request to a path.
    var failures: [String: (HTTPResponse.Status, String)] = [:]
    var weakPasswords: Set<String> = ["password123456"]

    // State.
    private(set) var keys: [String: TransactionKeyPair] = [:]
    private(set) var usedKeys: Set<String> = []
    private(set) var session: Session?
    private(set) var openedPasswords: [String] = []
    private(set) var receivedEnvelopes: [(payload: EncryptedPayload, context: TransactionKeyContext)] = []
    private(set) var enrolledJKT: String?
    private(set) var attestedKey: (key: AttestedKey, counter: UInt32)?
    private(set) var assertionsVerified = 0
    private(set) var credential: (id: String, sealed: String, keyVersion: Int, latVersion: Int, userGUID: String)?
    private var actions: [String: (token: String, keyID: String, used: Bool)] = [:]
    private var counter = 0

    init() throws {
        let authority = try SoftwareAttestationAuthority.generate()
        self.authority = authority
        self.verifier = AppAttestVerifier(
            configuration: .init(
                appID: Self.appID, allowedEnvironments: [.development], trustedRoots: [authority.rootCertificate])
        )
        let nonces = RotatingNonce()
        self.nonces = nonces
        self.proofVerifier = DPoPVerifier(
            configuration: .init(requireNonce: true), replayCache: InMemoryDPoPReplayCache(), nonceValidator: nonces)
    }

    func set(attestationRequired: Bool) { self.attestationRequired = attestationRequired }
    func set(forgedLAT latID: String, token: String, version: Int) { self.forgedLAT = (latID, token, version) }
    func fail(_ path: String, status: HTTPResponse.Status, code: String) { failures[path] = (status, code) }
    func rotateNonce() async { _ = await nonces.rotate() }
    func latToken(version: Int) -> String {
        Base64URL.encode(Array("lat-\(credential?.id ?? "")-\(version)".utf8.prefix(32)))
    }

    nonisolated func transport() -> FakeTransport {
        FakeTransport { request in await self.handle(request) }
    }

    func handle(_ request: RecordedRequest) async -> (HTTPResponse, HTTPBody?) {
        let path = String(request.path.prefix { $0 != "?" })
        let body = (try? JSONSerialization.jsonObject(with: request.body)) as? [String: Any] ?? [:]
        var accessToken: String?
        var boundJKT: String?
        if path != "/vault/enroll/start" && path != "/vault/action/request" {
            guard let authorization = request.headers[.authorization], authorization.hasPrefix("DPoP ") else {
                return errorResponse(.unauthorized, code: "invalid_token")
            }
            let token = String(authorization.dropFirst(5))
            if path.hasPrefix("/vault/enroll/") {
                guard let session, session.token == token else {
                    return errorResponse(.unauthorized, code: "invalid_token")
                }
                boundJKT = session.jkt
            } else {
                guard actions.values.contains(where: { $0.token == token }) else {
                    return errorResponse(.unauthorized, code: "invalid_token")
                }
                boundJKT = enrolledJKT
            }
            accessToken = token
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
            let current = await nonces.current
            if error.isNonceChallenge {
                return errorResponse(.badRequest, code: "use_dpop_nonce", headers: [dpopNonceField: current])
            }
            return errorResponse(.unauthorized, code: "invalid_dpop_proof", headers: [dpopNonceField: current])
        }
        if let failure = failures.removeValue(forKey: path) {
            return errorResponse(failure.0, code: failure.1)
        }
        let nonceHeader: HTTPFields = [dpopNonceField: await nonces.current]
        switch path {
        case "/vault/enroll/start": return start(body, proof: proof, headers: nonceHeader)
        case "/vault/enroll/attestation": return await attestation(body, proof: proof, headers: nonceHeader)
        case "/vault/enroll/password": return password(body, headers: nonceHeader)
        case "/vault/enroll/finalize": return finalize(body, headers: nonceHeader)
        case "/vault/action/request": return actionRequest(body, proof: proof, headers: nonceHeader)
        case "/vault/auth/execute": return execute(body, token: accessToken ?? "", headers: nonceHeader)
        default: return errorResponse(.notFound, code: "not_found")
        }
    }

    private func json(_ status: HTTPResponse.Status, _ object: [String: Any], headers: HTTPFields) -> (
        HTTPResponse, HTTPBody?
    ) {
        let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        return jsonResponse(status, String(decoding: data, as: UTF8.self), headers: headers)
    }

    private func issueKeys(_ count: Int) -> [[String: Any]] {
        (0..<count).map { _ in
            counter += 1
            let pair = TransactionKeyPair.generate(keyID: "tk-\(counter)")
            keys[pair.keyID] = pair
            return ["key_id": pair.keyID, "public_key": pair.publicKeyBase64URL, "algorithm": "X25519"]
        }
    }

    private func unusedKeys() -> [[String: Any]] {
        keys.values.filter { !usedKeys.contains($0.keyID) }
            .sorted { Int($0.keyID.dropFirst(3))! < Int($1.keyID.dropFirst(3))! }
            .map { ["key_id": $0.keyID, "public_key": $0.publicKeyBase64URL, "algorithm": "X25519"] }
    }

    private func start(_ body: [String: Any], proof: VerifiedDPoPProof, headers: HTTPFields) -> (
        HTTPResponse, HTTPBody?
    ) {
        guard body["invitation_code"] as? String == Self.invitationCode, body["device_type"] is String else {
            return errorResponse(.notFound, code: "invitation_not_found")
        }
        let challenge = Base64URL.encode((0..<32).map { _ in UInt8.random(in: 0...255) })
        let session = Session(
            id: "enroll-1",
            token: "enrollment-token-1",
            jkt: proof.thumbprint,
            step: attestationRequired ? "started" : "attested",
            challenge: attestationRequired ? challenge : nil
        )
        self.session = session
        var object: [String: Any] = [
            "enrollment_session_id": session.id,
            "enrollment_token": session.token,
            "token_type": "DPoP",
            "expires_at": "2030-01-01T00:00:00Z",
            "user_guid": "user-1",
            "transaction_keys": issueKeys(4),
            "password_key_id": "tk-1",
            "next_step": attestationRequired ? "attestation" : "password",
            "attestation_required": attestationRequired,
        ]
        if attestationRequired { object["attestation_challenge"] = challenge }
        return json(.created, object, headers: headers)
    }

    private func attestation(_ body: [String: Any], proof: VerifiedDPoPProof, headers: HTTPFields) async -> (
        HTTPResponse, HTTPBody?
    ) {
        guard var session, session.step == "started", body["enrollment_session_id"] as? String == session.id else {
            return errorResponse(.conflict, code: "step_out_of_order")
        }
        let format = body["format"] as? String
        switch format {
        case "development":
            guard body["development_token"] as? String == "dev-token" else {
                return errorResponse(.badRequest, code: "attestation_invalid")
            }
        case "software":
            guard let keyIDText = body["key_id"] as? String, let keyID = Data(base64Encoded: keyIDText),
                let objectText = body["attestation_object"] as? String, let object = Data(base64Encoded: objectText),
                let challenge = session.challenge,
                let binding = AppAttestClientDataHash.binding(
                    challenge: Base64URL.decode(challenge)!, keyThumbprint: Base64URL.decode(proof.thumbprint)!)
            else { return errorResponse(.badRequest, code: "attestation_invalid") }
            do {
                attestedKey = (
                    try await verifier.verifyAttestation(Array(object), keyID: Array(keyID), clientDataHash: binding), 0
                )
            } catch {
                return errorResponse(.badRequest, code: "attestation_invalid")
            }
        default:
            return errorResponse(.badRequest, code: "invalid_request")
        }
        session.step = "attested"
        session.attestationFormat = format
        self.session = session
        return json(
            .ok,
            [
                "status": "attestation_verified", "device_type": "linux", "security_level": "software",
                "next_step": "password",
            ], headers: headers)
    }

    struct Refusal: Error {
        let code: String
    }

    private func open(_ wire: Any?, purpose: TransactionKeyPurpose, contextID: String) -> Result<String, Refusal> {
        guard let object = wire as? [String: Any], let keyID = object["key_id"] as? String,
            let enc = object["enc"] as? String,
            let ciphertext = object["ciphertext"] as? String
        else { return .failure(Refusal(code: "invalid_request")) }
        guard let pair = keys[keyID] else { return .failure(Refusal(code: "invalid_request")) }
        guard !usedKeys.contains(keyID) else { return .failure(Refusal(code: "transaction_key_used")) }
        usedKeys.insert(keyID)
        let payload = EncryptedPayload(keyID: keyID, enc: enc, ciphertext: ciphertext)
        let context = TransactionKeyContext(purpose: purpose, contextID: contextID, keyID: keyID)
        receivedEnvelopes.append((payload, context))
        guard let plaintext = try? TransactionKeyEnvelope.open(payload, context: context, privateKey: pair.privateKey)
        else {
            return .failure(Refusal(code: "invalid_request"))
        }
        let password = String(decoding: plaintext, as: UTF8.self)
        openedPasswords.append(password)
        return .success(password)
    }

    private func password(_ body: [String: Any], headers: HTTPFields) -> (HTTPResponse, HTTPBody?) {
        guard var session, session.step == "attested", body["enrollment_session_id"] as? String == session.id else {
            return errorResponse(.conflict, code: "step_out_of_order")
        }
        switch open(body["encrypted_password"], purpose: .enrollmentPassword, contextID: session.id) {
        case .failure(let refusal):
            return errorResponse(refusal.code == "transaction_key_used" ? .conflict : .badRequest, code: refusal.code)
        case .success(let password):
            if weakPasswords.contains(password) {
                return jsonResponse(
                    .badRequest,
                    #"{"error":"weak_password","error_description":"The password is too weak.","reasons":["is too easy to guess (strength 0 of 4, needs 3)","contains a common word or password"],"score":0}"#
                )
            }
            passwordForAuthentication = password
        }
        session.step = "password_set"
        self.session = session
        return json(.ok, ["status": "password_set", "next_step": "finalize"], headers: headers)
    }

    private func package() -> [String: Any] {
        let credential = credential!
        return [
            "user_guid": credential.userGUID,
            "credential_id": credential.id,
            "sealed_credential": credential.sealed,
            "key_version": credential.keyVersion,
            "ledger_auth_token": [
                "lat_id": "lat-\(credential.id)", "token": latToken(version: credential.latVersion),
                "version": credential.latVersion,
            ],
            "transaction_keys": unusedKeys(),
        ]
    }

    /// The vault identity key set of the finalize answer: one key (the point of the P-256 private key 1, a fixed
    /// public value).
    static var vaultSessionKeys: [String: Any] {
        [
            "keys": [
                [
                    "kid": "vault-session-1", "kty": "EC", "crv": "P-256", "alg": "ES256",
                    "x": "axfR8uEsQkf4vOblY6RA8ncDfYEt6zOg9KE5RdiYwpY",
                    "y": "T-NC4v4af5uO5-tKfA-eFivOM1drMV7Oy7ZAaDe_UfU",
                ]
            ],
            "current_kid": "vault-session-1",
        ]
    }

    private func finalize(_ body: [String: Any], headers: HTTPFields) -> (HTTPResponse, HTTPBody?) {
        guard var session, session.step == "password_set", body["enrollment_session_id"] as? String == session.id else {
            return errorResponse(.conflict, code: "step_out_of_order")
        }
        session.step = "completed"
        self.session = session
        enrolledJKT = session.jkt
        credential = ("cred-1", Base64URL.encode(Array("sealed-v1".utf8)), 1, 1, "user-1")
        return json(
            .ok,
            [
                "status": "enrolled", "credential_package": package(), "vault_status": "enrolled",
                "vault_session_keys": Self.vaultSessionKeys,
            ], headers: headers)
    }

    private func actionRequest(_ body: [String: Any], proof: VerifiedDPoPProof, headers: HTTPFields) -> (
        HTTPResponse, HTTPBody?
    ) {
        guard let credential, proof.thumbprint == enrolledJKT else {
            return errorResponse(.unauthorized, code: "invalid_dpop_proof")
        }
        guard body["user_guid"] as? String == credential.userGUID, body["credential_id"] as? String == credential.id,
            body["action"] as? String == "authenticate"
        else { return errorResponse(.notFound, code: "not_found") }
        if let attested = attestedKey {
            // An attested credential must send an assertion over client_data ‖ jkt (as the real server does).
            guard let assertionText = body["assertion"] as? String, let assertion = Data(base64Encoded: assertionText),
                let clientDataText = body["client_data"] as? String, let clientData = Base64URL.decode(clientDataText),
                let fields = (try? JSONSerialization.jsonObject(with: Data(clientData))) as? [String: Any],
                fields["action"] as? String == "authenticate", fields["credential_id"] as? String == credential.id,
                let iat = fields["iat"] as? Int, abs(iat - Int(Date().timeIntervalSince1970)) <= 300,
                let nonce = fields["nonce"] as? String, (Base64URL.decode(nonce)?.count ?? 0) >= 16
            else { return errorResponse(.unauthorized, code: "assertion_invalid") }
            do {
                let next = try verifier.verifyAssertion(
                    Array(assertion), clientData: clientData + Base64URL.decode(proof.thumbprint)!,
                    publicKey: attested.key.publicKey,
                    storedCounter: attested.counter)
                attestedKey = (attested.key, next)
                assertionsVerified += 1
            } catch {
                return errorResponse(.unauthorized, code: "assertion_invalid")
            }
        }
        guard let keyID = unusedKeys().first?["key_id"] as? String, let pair = keys[keyID] else {
            return errorResponse(.conflict, code: "not_enrolled")
        }
        counter += 1
        let action = (id: "action-\(counter)", token: "action-token-\(counter)")
        actions[action.id] = (action.token, keyID, false)
        var lat: [String: Any] = [
            "lat_id": "lat-\(credential.id)", "token": latToken(version: credential.latVersion),
            "version": credential.latVersion,
        ]
        if let forgedLAT { lat = ["lat_id": forgedLAT.latID, "token": forgedLAT.token, "version": forgedLAT.version] }
        return json(
            .ok,
            [
                "action_id": action.id, "action_token": action.token, "token_type": "DPoP", "expires_in": 60,
                "ledger_auth_token": lat, "use_key_id": keyID,
                "transaction_key": ["key_id": keyID, "public_key": pair.publicKeyBase64URL, "algorithm": "X25519"],
            ],
            headers: headers
        )
    }

    private func execute(_ body: [String: Any], token: String, headers: HTTPFields) -> (HTTPResponse, HTTPBody?) {
        guard let actionID = body["action_id"] as? String, let action = actions[actionID], action.token == token else {
            return errorResponse(.unauthorized, code: "invalid_token")
        }
        guard !action.used else { return errorResponse(.conflict, code: "action_replayed") }
        actions[actionID]?.used = true
        guard var current = credential, body["credential_id"] as? String == current.id else {
            return errorResponse(.conflict, code: "not_enrolled")
        }
        guard body["sealed_credential"] as? String == current.sealed, body["key_version"] as? Int == current.keyVersion
        else {
            return errorResponse(.conflict, code: "stale_credential")
        }
        guard (body["encrypted_password"] as? [String: Any])?["key_id"] as? String == action.keyID else {
            return errorResponse(.badRequest, code: "invalid_request")
        }
        switch open(body["encrypted_password"], purpose: .authenticationPassword, contextID: actionID) {
        case .failure(let refusal):
            return errorResponse(refusal.code == "transaction_key_used" ? .conflict : .badRequest, code: refusal.code)
        case .success(let password):
            guard password == passwordForAuthentication else {
                return errorResponse(.unauthorized, code: "invalid_credentials")
            }
        }
        current.keyVersion += 1
        current.latVersion += 1
        current.sealed = Base64URL.encode(Array("sealed-v\(current.keyVersion)".utf8))
        credential = current
        _ = issueKeys(2)
        return json(
            .ok,
            [
                "status": "authenticated", "session_token": "vault-session-1", "token_type": "DPoP", "expires_in": 900,
                "credential_package": package(),
            ],
            headers: headers
        )
    }
}
