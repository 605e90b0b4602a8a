// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
import VettIDAttestation
import VettIDCore
import VettIDCrypto
import VettIDSoftwareAttestation

@testable import VettIDServer

/// Shared parts of the enrollment and vault authentication tests: a server that trusts the test software
/// attestation root (and a development token), and the device side of every step.
enum VaultTest {
    static let password = "correct-Horse-battery-91"

    static func configuration(requireAttestation: Bool = true) -> ServerConfiguration {
        var configuration = GateTest.configuration(developmentTokens: [GateTest.developmentToken])
        configuration.vault.requireAttestation = requireAttestation
        return configuration
    }

    /// A started session as the device sees it.
    struct Session: Sendable {
        let id: String
        let token: String
        let userGUID: String
        let challenge: String
        let passwordKeyID: String
        /// key id → X25519 public key.
        let keys: [String: Curve25519.KeyAgreement.PublicKey]

        init(_ json: [String: Any]) throws {
            id = try #require(json["enrollment_session_id"] as? String)
            token = try #require(json["enrollment_token"] as? String)
            userGUID = try #require(json["user_guid"] as? String)
            challenge = try #require(json["attestation_challenge"] as? String)
            passwordKeyID = try #require(json["password_key_id"] as? String)
            keys = try Self.keys(json["transaction_keys"])
        }

        static func keys(_ value: Any?) throws -> [String: Curve25519.KeyAgreement.PublicKey] {
            let list = try #require(value as? [[String: Any]])
            var keys: [String: Curve25519.KeyAgreement.PublicKey] = [:]
            for item in list {
                let id = try #require(item["key_id"] as? String)
                let text = try #require(item["public_key"] as? String)
                let raw = try #require(Base64URL.decode(text))
                keys[id] = try Curve25519.KeyAgreement.PublicKey(rawRepresentation: raw)
            }
            return keys
        }
    }

    /// A credential package as the device stores it.
    struct Package: Sendable, Equatable {
        let userGUID: String
        let credentialID: String
        let sealedCredential: String
        let keyVersion: Int
        let lat: [String: String]
        let keyIDs: Set<String>

        init(_ json: [String: Any]) throws {
            userGUID = try #require(json["user_guid"] as? String)
            credentialID = try #require(json["credential_id"] as? String)
            sealedCredential = try #require(json["sealed_credential"] as? String)
            keyVersion = try #require(json["key_version"] as? Int)
            let lat = try #require(json["ledger_auth_token"] as? [String: Any])
            self.lat = [
                "lat_id": try #require(lat["lat_id"] as? String), "token": try #require(lat["token"] as? String),
                "version": String(try #require(lat["version"] as? Int)),
            ]
            keyIDs = Set(try Session.keys(json["transaction_keys"]).keys)
        }
    }

    /// `encrypted_password` for `password` to `key` in `context`.
    static func encrypt(
        _ password: String, to key: Curve25519.KeyAgreement.PublicKey, purpose: TransactionKeyPurpose,
        contextID: String,
        keyID: String
    ) throws -> [String: Any] {
        let payload = try TransactionKeyEnvelope.seal(
            Array(password.utf8), to: key,
            context: TransactionKeyContext(purpose: purpose, contextID: contextID, keyID: keyID))
        return ["key_id": payload.keyID, "enc": payload.enc, "ciphertext": payload.ciphertext]
    }
}

extension TestClientProtocol {
    /// A new member's fresh invitation code.
    func invitationCode(email: String = "member-\(UUID().uuidString.prefix(8))@example.com") async throws -> String {
        let tokens = try await registerAndLogin(email: email)
        let bearer: HTTPFields = [.authorization: "Bearer \(try #require(tokens["access_token"] as? String))"]
        let created = try await post("/vault/invitations", [:], headers: bearer)
        #expect(created.status == .created)
        return try #require(created.json["code"] as? String)
    }

    /// `POST /vault/enroll/start` proven by `device`.
    func enrollStart(_ device: GateTest.Device, code: String, nonce: String, deviceType: String = "ios") async throws
        -> TestResponse
    {
        try await post(
            "/vault/enroll/start", ["invitation_code": code, "device_type": deviceType],
            headers: [.dpop: try await device.proof("POST", "/vault/enroll/start", nonce: nonce)])
    }

    /// A fresh member's invitation redeemed by `device`: the started session and the nonce in use.
    func startSession(_ device: GateTest.Device) async throws -> (VaultTest.Session, nonce: String) {
        let nonce = try await gateNonce(device)
        let response = try await enrollStart(device, code: try await invitationCode(), nonce: nonce)
        #expect(response.status == .created)
        return (try VaultTest.Session(response.json), nonce)
    }

    /// POSTs `body` to `path` with `Authorization: DPoP <token>` and a proof by `device` (with `ath`).
    func deviceCall(_ path: String, _ body: [String: Any], device: GateTest.Device, token: String, nonce: String)
        async throws -> TestResponse
    {
        try await post(
            path, body,
            headers: [
                .authorization: "DPoP \(token)",
                .dpop: try await device.proof("POST", path, token: token, nonce: nonce),
            ])
    }

    /// The software attestation step for `session`.
    func enrollAttest(_ device: GateTest.Device, session: VaultTest.Session, nonce: String) async throws -> TestResponse
    {
        try await deviceCall(
            "/vault/enroll/attestation",
            [
                "enrollment_session_id": session.id, "format": "software", "key_id": device.keyID,
                "attestation_object": try device.attestation(challenge: session.challenge),
            ], device: device, token: session.token, nonce: nonce)
    }

    /// The password step, encrypted to `keyID` (default: the session's password key).
    func enrollPassword(
        _ device: GateTest.Device, session: VaultTest.Session, nonce: String, password: String = VaultTest.password,
        keyID: String? = nil
    ) async throws -> TestResponse {
        let keyID = keyID ?? session.passwordKeyID
        let payload = try VaultTest.encrypt(
            password, to: try #require(session.keys[keyID]), purpose: .enrollmentPassword, contextID: session.id,
            keyID: keyID)
        return try await deviceCall(
            "/vault/enroll/password", ["enrollment_session_id": session.id, "encrypted_password": payload],
            device: device, token: session.token, nonce: nonce)
    }

    func enrollFinalize(_ device: GateTest.Device, session: VaultTest.Session, nonce: String) async throws
        -> TestResponse
    {
        try await deviceCall(
            "/vault/enroll/finalize", ["enrollment_session_id": session.id], device: device, token: session.token,
            nonce: nonce)
    }

    /// Invitation → start → software attestation → password → finalize; returns the package and the nonce.
    func enroll(_ device: GateTest.Device, code: String? = nil) async throws -> (VaultTest.Package, nonce: String) {
        let nonce = try await gateNonce(device)
        var invitation = code
        if invitation == nil { invitation = try await invitationCode() }
        let code = try #require(invitation)
        let started = try await enrollStart(device, code: code, nonce: nonce)
        #expect(started.status == .created)
        let session = try VaultTest.Session(started.json)
        #expect(try await enrollAttest(device, session: session, nonce: nonce).status == .ok)
        #expect(try await enrollPassword(device, session: session, nonce: nonce).status == .ok)
        let finalized = try await enrollFinalize(device, session: session, nonce: nonce)
        #expect(finalized.status == .ok)
        return (try VaultTest.Package(try #require(finalized.json["credential_package"] as? [String: Any])), nonce)
    }

    /// `POST /vault/action/request` with an assertion (counter `counter`) when `assert` is set.
    func actionRequest(
        _ device: GateTest.Device, package: VaultTest.Package, nonce: String, counter: UInt32?,
        clientData: [String: Any]? = nil
    ) async throws -> TestResponse {
        var body: [String: Any] = [
            "user_guid": package.userGUID, "credential_id": package.credentialID, "action": "authenticate",
        ]
        if let counter {
            let data =
                clientData ?? [
                    "action": "authenticate", "credential_id": package.credentialID,
                    "iat": Int(device.clock.now().timeIntervalSince1970),
                    "nonce": Base64URL.encode([UInt8](repeating: 9, count: 16)),
                ]
            let bytes = Array(try JSONSerialization.data(withJSONObject: data))
            body["client_data"] = Base64URL.encode(bytes)
            body["assertion"] = Data(
                try device.attester.generateAssertion(
                    device.attestationKey, clientData: bytes + device.jktBytes, counter: counter)
            ).base64EncodedString()
        }
        return try await post(
            "/vault/action/request", body,
            headers: [.dpop: try await device.proof("POST", "/vault/action/request", nonce: nonce)])
    }

    /// `POST /vault/auth/execute` for the action in `action` (the JSON of an action response).
    func authExecute(
        _ device: GateTest.Device, package: VaultTest.Package, action: [String: Any], nonce: String,
        password: String = VaultTest.password, keyVersion: Int? = nil, sealedCredential: String? = nil
    ) async throws -> TestResponse {
        let actionID = try #require(action["action_id"] as? String)
        let key = try #require(action["transaction_key"] as? [String: Any])
        let keyID = try #require(key["key_id"] as? String)
        let publicKeyText = try #require(key["public_key"] as? String)
        let publicKey = try Curve25519.KeyAgreement.PublicKey(
            rawRepresentation: try #require(Base64URL.decode(publicKeyText)))
        let payload = try VaultTest.encrypt(
            password, to: publicKey, purpose: .authenticationPassword, contextID: actionID, keyID: keyID)
        return try await deviceCall(
            "/vault/auth/execute",
            [
                "action_id": actionID, "credential_id": package.credentialID,
                "sealed_credential": sealedCredential ?? package.sealedCredential,
                "key_version": keyVersion ?? package.keyVersion, "encrypted_password": payload,
            ], device: device, token: try #require(action["action_token"] as? String), nonce: nonce)
    }
}
