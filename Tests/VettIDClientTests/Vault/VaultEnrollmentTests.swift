// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes
import Testing
import VettIDCore
import VettIDCrypto

@testable import VettIDClient

@Suite("Vault enrollment")
struct VaultEnrollmentTests {
    @Test(
        "enrolls with a development attestation: proofs, tokens with ath, nonce retry, sealed password, stored package")
    func enrollsWithDevelopmentAttestation() async throws {
        let fixture = try await VaultFixture.make(.development)
        let credential = try await fixture.enroll()

        // The server checked every proof (nonce, ath, jkt); the first start was retried once with its nonce.
        #expect(await fixture.requests("/vault/enroll/start").count == 2)
        #expect(await fixture.server.session?.step == "completed")
        #expect(await fixture.server.session?.attestationFormat == "development")
        #expect(await fixture.server.openedPasswords == [VaultFixture.password])
        let start = try #require(await fixture.requests("/vault/enroll/start").last)
        #expect(start.headers[.authorization] == nil)
        #expect(start.headers[dpopField] != nil)
        for path in ["/vault/enroll/attestation", "/vault/enroll/password", "/vault/enroll/finalize"] {
            let request = try #require(await fixture.requests(path).first)
            #expect(request.headers[.authorization] == "DPoP enrollment-token-1")
            let proof = try #require(request.headers[dpopField])
            let claims = try vaultProofClaims(proof)
            #expect(claims["ath"] as? String == DPoPProofBuilder.accessTokenHash("enrollment-token-1"))
            #expect(claims["nonce"] as? String == "nonce-1")
        }
        // The password never travels in clear.
        let passwordRequest = try #require(await fixture.requests("/vault/enroll/password").first)
        #expect(!String(decoding: passwordRequest.body, as: UTF8.self).contains(VaultFixture.password))

        // The whole package is stored as one item.
        let stored = try #require(try await fixture.service.storedCredential())
        #expect(stored == credential)
        #expect(stored.package.userGUID == "user-1")
        #expect(stored.package.credentialID == "cred-1")
        #expect(stored.package.keyVersion == 1)
        #expect(stored.package.ledgerAuthToken.version == 1)
        #expect(stored.package.transactionKeys.map(\.keyID) == ["tk-2", "tk-3", "tk-4"])
        #expect(stored.attestationFormat == .development)
        // The finalize answer's vault session keys are pinned with the credential.
        #expect(stored.vaultSessionKeys?.currentKID == "vault-session-1")
        #expect(stored.vaultSessionKeys?.keys.map(\.jwk.x) == ["axfR8uEsQkf4vOblY6RA8ncDfYEt6zOg9KE5RdiYwpY"])
        let raw = try #require(try await fixture.store.data(forKey: "vettid.vault.credential"))
        #expect(try JSONDecoder().decode(VaultCredential.self, from: raw) == credential)
    }

    @Test("the password envelope opens only with the session's key, purpose and id")
    func envelopeIsBoundToTheSession() async throws {
        let fixture = try await VaultFixture.make(.development)
        try await fixture.enroll()
        let envelopes = await fixture.server.receivedEnvelopes
        let received = try #require(envelopes.first)
        #expect(received.payload.keyID == "tk-1")
        #expect(
            received.context
                == TransactionKeyContext(purpose: .enrollmentPassword, contextID: "enroll-1", keyID: "tk-1"))
        let pair = try #require(await fixture.server.keys["tk-1"])
        let opened = try TransactionKeyEnvelope.open(
            received.payload, context: received.context, privateKey: pair.privateKey)
        #expect(String(decoding: opened, as: UTF8.self) == VaultFixture.password)
        // Another session id, purpose, or key does not open it.
        let otherSession = TransactionKeyContext(purpose: .enrollmentPassword, contextID: "enroll-2", keyID: "tk-1")
        #expect(throws: TransactionKeyEnvelopeError.self) {
            try TransactionKeyEnvelope.open(received.payload, context: otherSession, privateKey: pair.privateKey)
        }
        let otherPurpose = TransactionKeyContext(purpose: .authenticationPassword, contextID: "enroll-1", keyID: "tk-1")
        #expect(throws: TransactionKeyEnvelopeError.self) {
            try TransactionKeyEnvelope.open(received.payload, context: otherPurpose, privateKey: pair.privateKey)
        }
        let otherKey = try #require(await fixture.server.keys["tk-2"])
        #expect(throws: TransactionKeyEnvelopeError.self) {
            try TransactionKeyEnvelope.open(
                received.payload, context: received.context, privateKey: otherKey.privateKey)
        }
    }

    @Test("a software attestation is bound to SHA-256(challenge ‖ jkt) and verified by the server")
    func enrollsWithSoftwareAttestation() async throws {
        let fixture = try await VaultFixture.make(.software)
        let credential = try await fixture.enroll()
        #expect(credential.attestationFormat == .software)
        #expect(await fixture.server.attestedKey != nil)
        let request = try #require(await fixture.requests("/vault/enroll/attestation").first)
        let body = try fixture.json(request)
        #expect(body["format"] as? String == "software")
        let keyID = try #require(body["key_id"] as? String)
        let object = try #require(body["attestation_object"] as? String)
        #expect(Data(base64Encoded: keyID)?.count == 32)
        #expect(Data(base64Encoded: object) != nil)
    }

    @Test("without required attestation the password follows start directly")
    func skipsAttestationWhenNotRequired() async throws {
        let fixture = try await VaultFixture.make(.development, attestationRequired: false)
        let credential = try await fixture.enroll()
        #expect(await fixture.requests("/vault/enroll/attestation").isEmpty)
        #expect(credential.attestationFormat == nil)
    }

    @Test("410 session_expired at finalize keeps its code and stores nothing")
    func sessionExpiredAtFinalize() async throws {
        let fixture = try await VaultFixture.make(.development)
        await fixture.server.fail("/vault/enroll/finalize", status: .gone, code: "session_expired")
        let expired = await captureError { try await fixture.enroll() }
        #expect(expired?.code == .sessionExpired)
        #expect(expired?.status == 410)
        #expect(try await fixture.service.storedCredential() == nil)
    }

    @Test("409 invitation_used is the error the caller sees")
    func invitationUsedIsThrown() async throws {
        let fixture = try await VaultFixture.make(.development)
        await fixture.server.fail("/vault/enroll/start", status: .conflict, code: "invitation_used")
        let error = await captureError { try await fixture.enroll() }
        #expect(error?.code == .invitationUsed)
        #expect(error?.status == 409)
        #expect(await fixture.requests("/vault/enroll/attestation").isEmpty)
    }

    @Test("a weak password comes back as weak_password with the server's reasons")
    func weakPasswordKeepsReasons() async throws {
        let fixture = try await VaultFixture.make(.development)
        let enrollment = fixture.service.enrollment()
        try await enrollment.start(try fixture.invitation)
        try await enrollment.attest()
        let error = await captureError { try await enrollment.setPassword("password123456") }
        #expect(error?.code == .weakPassword)
        #expect(error?.reasons.contains("contains a common word or password") == true)
        #expect(await enrollment.phase == .awaitingPassword)
        // The server claimed tk-1; the next attempt goes to another unused key and succeeds.
        try await enrollment.setPassword(VaultFixture.password)
        #expect(await fixture.server.receivedEnvelopes.map(\.payload.keyID) == ["tk-1", "tk-2"])
        let credential = try await enrollment.finalize()
        #expect(credential.package.transactionKeys.map(\.keyID) == ["tk-3", "tk-4"])
    }

    @Test("steps out of order fail locally, before any request")
    func stepsOutOfOrderFailLocally() async throws {
        let fixture = try await VaultFixture.make(.development)
        let enrollment = fixture.service.enrollment()
        let early = await captureError { try await enrollment.setPassword(VaultFixture.password) }
        #expect(early?.code == .stepOutOfOrder)
        try await enrollment.start(try fixture.invitation)
        let beforeAttestation = await captureError { try await enrollment.setPassword(VaultFixture.password) }
        #expect(beforeAttestation?.code == .stepOutOfOrder)
        let finalizeEarly = await captureError { try await enrollment.finalize() }
        #expect(finalizeEarly?.code == .stepOutOfOrder)
        #expect(await fixture.requests("/vault/enroll/password").isEmpty)
        #expect(await fixture.requests("/vault/enroll/finalize").isEmpty)
    }

    @Test("an invitation for another origin is refused without a request")
    func refusesAnotherOrigin() async throws {
        let fixture = try await VaultFixture.make(.development)
        let foreign = try EnrollmentInvitationLink(code: "K7QM-3XPA", apiOrigin: URL(string: "https://evil.example")!)
        let error = await captureError {
            _ = try await fixture.service.enroll(invitation: foreign, password: VaultFixture.password)
        }
        #expect(error?.code == .untrustedOrigin)
        #expect(await fixture.transport.log.requests.isEmpty)
    }

    @Test("a non-DPoP enrollment token is refused")
    func refusesBearerEnrollmentToken() throws {
        #expect(throws: APIError.self) { try VaultService.requireDPoP("Bearer", what: "enrollment token") }
        try VaultService.requireDPoP("dpop", what: "enrollment token")
    }
}

/// The APIError a call throws, or nil.
func captureError(_ body: () async throws -> Void) async -> APIError? {
    do {
        try await body()
        return nil
    } catch {
        return APIError.from(error)
    }
}

/// The claims of a compact JWS (not verified).
func vaultProofClaims(_ proof: String) throws -> [String: Any] {
    let parts = proof.split(separator: ".")
    let payload = try #require(Base64URL.decode(String(parts[1])))
    return try #require(try JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any])
}
