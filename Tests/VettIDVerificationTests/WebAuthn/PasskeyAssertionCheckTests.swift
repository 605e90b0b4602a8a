// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Testing
import VettIDAttestation
import VettIDCore
import VettIDTestSupport
import VettIDVerification

/// WebAuthn Level 3 §7.2, one test per check.
@Suite("Passkey authentication checks (§7.2)")
struct PasskeyAssertionCheckTests {
    static let rpID = "vettid.example"
    static let origin = "https://vettid.example"
    let party = PasskeyRelyingParty(configuration: .init(rpID: rpID, origins: [origin]))
    let challenge = (0..<32).map { UInt8(255 - $0) }
    let owner: [UInt8] = Array(repeating: 1, count: 32)
    let stranger: [UInt8] = Array(repeating: 2, count: 32)

    func stored(_ key: TestPasskey, signCount: UInt32 = 0, backupEligible: Bool = false)
        -> PasskeyRelyingParty.StoredCredential
    {
        .init(
            credentialID: key.credentialID, publicKey: key.publicKey, signCount: signCount,
            backupEligible: backupEligible, ownerUserHandle: owner)
    }

    func refusal(
        _ response: PasskeyAssertionResponse, credential: PasskeyRelyingParty.StoredCredential,
        allowed: [[UInt8]] = [], identified: [UInt8]? = nil, party: PasskeyRelyingParty? = nil
    ) -> WebAuthnError.Code? {
        do {
            _ = try (party ?? self.party).verifyAssertion(
                response, challenge: challenge, allowedCredentialIDs: allowed, identifiedUserHandle: identified,
                credential: credential)
            return nil
        } catch {
            return error.code
        }
    }

    @Test("a valid assertion of each algorithm verifies and reports the new counter", arguments: COSEAlgorithm.allCases)
    func accepts(_ algorithm: COSEAlgorithm) throws {
        let key = try TestPasskey(algorithm)
        let verified = try party.verifyAssertion(
            try key.assertion(
                challenge: challenge, rpID: Self.rpID, origin: Self.origin, signCount: 5, userHandle: owner),
            challenge: challenge, allowedCredentialIDs: [key.credentialID], identifiedUserHandle: owner,
            credential: stored(key, signCount: 4))
        #expect(verified.signCount == 5)
        #expect(verified.userVerified)
    }

    @Test("another origin, type or challenge is refused")
    func clientData() throws {
        let key = try TestPasskey()
        let credential = stored(key)
        #expect(
            refusal(
                try key.assertion(
                    challenge: challenge, rpID: Self.rpID, origin: "https://evil.example", userHandle: owner),
                credential: credential) == .originMismatch)
        let create = TestPasskey.clientData(type: "webauthn.create", challenge: challenge, origin: Self.origin)
        #expect(
            refusal(
                try key.assertion(
                    challenge: challenge, rpID: Self.rpID, origin: Self.origin, userHandle: owner,
                    clientDataJSON: create), credential: credential) == .wrongCeremonyType)
        #expect(
            refusal(
                try key.assertion(challenge: [9, 9], rpID: Self.rpID, origin: Self.origin, userHandle: owner),
                credential: credential) == .challengeMismatch)
    }

    @Test("another relying party id hash is refused")
    func otherRPID() throws {
        let key = try TestPasskey()
        #expect(
            refusal(
                try key.assertion(challenge: challenge, rpID: "evil.example", origin: Self.origin, userHandle: owner),
                credential: stored(key)) == .rpIDMismatch)
    }

    @Test("user presence is required; user verification when the policy requires it")
    func presenceAndVerification() throws {
        let key = try TestPasskey()
        #expect(
            refusal(
                try key.assertion(
                    challenge: challenge, rpID: Self.rpID, origin: Self.origin, flags: [.userVerified],
                    userHandle: owner),
                credential: stored(key)) == .userNotPresent)
        let unverified = try key.assertion(
            challenge: challenge, rpID: Self.rpID, origin: Self.origin, flags: [.userPresent], userHandle: owner)
        #expect(refusal(unverified, credential: stored(key)) == nil)
        let strict = PasskeyRelyingParty(
            configuration: .init(rpID: Self.rpID, origins: [Self.origin], userVerification: .required))
        #expect(refusal(unverified, credential: stored(key), party: strict) == .userNotVerified)
    }

    @Test("backup state without eligibility, and a changed eligibility, are refused")
    func backupFlags() throws {
        let key = try TestPasskey()
        #expect(
            refusal(
                try key.assertion(
                    challenge: challenge, rpID: Self.rpID, origin: Self.origin, flags: [.userPresent, .backupState],
                    userHandle: owner), credential: stored(key)) == .backupStateWithoutEligibility)
        #expect(
            refusal(
                try key.assertion(
                    challenge: challenge, rpID: Self.rpID, origin: Self.origin, flags: [.userPresent, .backupEligible],
                    userHandle: owner), credential: stored(key, backupEligible: false)) == .backupEligibilityChanged)
        #expect(
            refusal(
                try key.assertion(
                    challenge: challenge, rpID: Self.rpID, origin: Self.origin, flags: [.userPresent], userHandle: owner
                ),
                credential: stored(key, backupEligible: true)) == .backupEligibilityChanged)
    }

    @Test("a counter that does not increase is refused unless both are zero")
    func counter() throws {
        let key = try TestPasskey()
        func response(_ count: UInt32) throws -> PasskeyAssertionResponse {
            try key.assertion(
                challenge: challenge, rpID: Self.rpID, origin: Self.origin, signCount: count, userHandle: owner)
        }
        #expect(refusal(try response(3), credential: stored(key, signCount: 7)) == .counterNotIncreased)
        #expect(refusal(try response(7), credential: stored(key, signCount: 7)) == .counterNotIncreased)
        #expect(refusal(try response(0), credential: stored(key, signCount: 7)) == .counterNotIncreased)
        #expect(refusal(try response(8), credential: stored(key, signCount: 7)) == nil)
        #expect(refusal(try response(0), credential: stored(key, signCount: 0)) == nil)
    }

    @Test("a credential outside allowCredentials, or of another member than the identified one, is refused")
    func allowCredentials() throws {
        let key = try TestPasskey()
        let response = try key.assertion(challenge: challenge, rpID: Self.rpID, origin: Self.origin, userHandle: owner)
        #expect(refusal(response, credential: stored(key), allowed: [[1, 2, 3]]) == .credentialNotAllowed)
        #expect(refusal(response, credential: stored(key), identified: stranger) == .credentialNotAllowed)
    }

    @Test("a user handle of another member is refused; a discoverable sign-in needs one")
    func userHandle() throws {
        let key = try TestPasskey()
        #expect(
            refusal(
                try key.assertion(challenge: challenge, rpID: Self.rpID, origin: Self.origin, userHandle: stranger),
                credential: stored(key)) == .userHandleMismatch)
        let withoutHandle = try key.assertion(
            challenge: challenge, rpID: Self.rpID, origin: Self.origin, userHandle: nil)
        #expect(refusal(withoutHandle, credential: stored(key)) == .userHandleMismatch)
        // Identified by email first, the handle may be absent.
        #expect(refusal(withoutHandle, credential: stored(key), identified: owner) == nil)
    }

    @Test("a signature over other data, or by another key, is refused")
    func signature() throws {
        let key = try TestPasskey()
        #expect(
            refusal(
                try key.assertion(
                    challenge: challenge, rpID: Self.rpID, origin: Self.origin, userHandle: owner,
                    signedData: [1, 2, 3]),
                credential: stored(key)) == .invalidSignature)
        let other = try TestPasskey(credentialID: key.credentialID)
        #expect(
            refusal(
                try other.assertion(challenge: challenge, rpID: Self.rpID, origin: Self.origin, userHandle: owner),
                credential: stored(key)) == .invalidSignature)
    }

    @Test("the response must name the stored credential")
    func credentialID() throws {
        let key = try TestPasskey()
        #expect(
            refusal(
                try key.assertion(
                    challenge: challenge, rpID: Self.rpID, origin: Self.origin, userHandle: owner,
                    credentialID: [4, 5, 6]), credential: stored(key)) == .invalidCredentialID)
    }
}
