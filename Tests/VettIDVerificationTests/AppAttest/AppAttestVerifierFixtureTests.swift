// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import Foundation
import SwiftASN1
import Testing
import VettIDAttestation
import VettIDCore
import VettIDSoftwareAttestation
import VettIDTestSupport
import VettIDVerification
@_spi(FixedExpiryValidationTime) import X509

@Suite struct AppAttestVerifierFixtureTests {
    func verifier(
        _ fixture: AppAttestFixture, appID: String? = nil, environments: Set<AppAttestEnvironment> = [.development],
        roots: [Certificate]? = nil, at time: Date? = nil
    ) -> AppAttestVerifier {
        AppAttestVerifier(
            configuration: .init(
                appID: appID ?? fixture.app_id,
                allowedEnvironments: environments,
                trustedRoots: roots ?? [AppleAppAttestationRoot.certificate],
                chainPolicy: RFC5280Policy(fixedExpiryValidationTime: time ?? fixture.validationTime)
            )
        )
    }

    func refusal(
        _ verifier: AppAttestVerifier, _ fixture: AppAttestFixture, keyID: [UInt8]? = nil,
        clientDataHash: AppAttestClientDataHash? = nil
    ) async -> AppAttestError.Code? {
        do throws(AppAttestError) {
            _ = try await verifier.verifyAttestation(
                fixture.attestationObject, keyID: keyID ?? fixture.keyID,
                clientDataHash: clientDataHash ?? .hashing(fixture.challengeBytes))
            return nil
        } catch {
            return error.code
        }
    }

    @Test func embeddedRootIsApplesRoot() throws {
        let pem = try TestFixtures.string("appattest/Apple_App_Attestation_Root_CA.pem")
        #expect(try Certificate(pemEncoded: pem) == AppleAppAttestationRoot.certificate)
        var serializer = DER.Serializer()
        try serializer.serialize(AppleAppAttestationRoot.certificate)
        let fingerprint = SHA256.hash(data: serializer.serializedBytes).map { String(format: "%02X", $0) }.joined(
            separator: ":")
        #expect(
            fingerprint
                == "1C:B9:82:3B:A2:8B:A6:AD:2D:33:A0:06:94:1D:E2:AE:4F:51:3E:F1:D4:E8:31:B9:F7:E0:FA:7B:62:42:C9:32")
    }

    @Test(arguments: AppAttestFixture.names)
    func realAttestationVerifiesAtItsValidationTime(name: String) async throws {
        let fixture = try AppAttestFixture.load(name)
        #expect(fixture.client_data_hash_kind == "sha256")
        #expect(
            AppAttestClientDataHash.hashing(fixture.challengeBytes).bytes == hex(fixture.expected.client_data_hash_hex))
        let key = try await verifier(fixture).verifyAttestation(
            fixture.attestationObject, keyID: fixture.keyID, clientDataHash: .hashing(fixture.challengeBytes))
        #expect(Array(key.publicKey.x963Representation) == hex(fixture.expected.public_key_x962_uncompressed_hex))
        #expect(Array(SHA256.hash(data: key.receipt)) == hex(fixture.expected.receipt_sha256_hex))
        #expect(key.environment == .development)
        #expect(key.counter == 0)
        #expect(key.keyID == fixture.keyID)
    }

    @Test(arguments: AppAttestFixture.names)
    func realAttestationIsRefusedWhenAnythingDiffers(name: String) async throws {
        let fixture = try AppAttestFixture.load(name)
        // Today: the leaf has expired.
        #expect(await refusal(verifier(fixture, at: Date()), fixture) == .untrustedCertificateChain)
        // Another challenge: the certified nonce differs.
        #expect(
            await refusal(verifier(fixture), fixture, clientDataHash: .hashing(Array("another challenge".utf8)))
                == .nonceMismatch)
        // The raw challenge instead of its hash.
        #expect(
            await refusal(verifier(fixture), fixture, clientDataHash: .raw(fixture.challengeBytes)) == .nonceMismatch)
        // Another key id.
        var otherKeyID = fixture.keyID
        otherKeyID[0] ^= 0xFF
        #expect(await refusal(verifier(fixture), fixture, keyID: otherKeyID) == .keyIDMismatch)
        // Another app id.
        #expect(await refusal(verifier(fixture, appID: "ABCDE12345.com.example.other"), fixture) == .appIDMismatch)
        // Production only.
        #expect(await refusal(verifier(fixture, environments: [.production]), fixture) == .environmentNotAllowed)
        // Only a software root trusted.
        let softwareRoot = try SoftwareAttestationAuthority.generate().rootCertificate
        #expect(await refusal(verifier(fixture, roots: [softwareRoot]), fixture) == .untrustedCertificateChain)
    }

    @Test func assertionWithTheAttestedKeyVerifiesAndIsNotReplayable() async throws {
        let fixture = try AppAttestFixture.load("appattest-checker-node")
        let assertion = try #require(fixture.assertion)
        #expect(assertion.public_key_is_attested_key)
        let key = try await verifier(fixture).verifyAttestation(
            fixture.attestationObject, keyID: fixture.keyID, clientDataHash: .hashing(fixture.challengeBytes))
        let object = Array(try #require(Data(base64Encoded: assertion.assertion_base64)))
        let clientData = Array(assertion.client_data_utf8.utf8)
        let counter = try verifier(fixture).verifyAssertion(
            object, clientData: clientData, publicKey: key.publicKey, storedCounter: assertion.previous_counter)
        #expect(counter == assertion.expected_counter)
        #expect(throws: AppAttestError(.counterNotIncreased, "the counter did not increase")) {
            try verifier(fixture).verifyAssertion(
                object, clientData: clientData, publicKey: key.publicKey, storedCounter: counter)
        }
        #expect(throws: AppAttestError(.counterNotIncreased, "the counter did not increase")) {
            try verifier(fixture).verifyAssertion(
                object, clientData: clientData, publicKey: key.publicKey, storedCounter: 7)
        }
        let changed = Array(assertion.client_data_utf8.replacingOccurrences(of: "1234", with: "1235").utf8)
        #expect(throws: AppAttestError(.invalidAssertionSignature, "the assertion signature does not verify")) {
            try verifier(fixture).verifyAssertion(
                object, clientData: changed, publicKey: key.publicKey, storedCounter: 0)
        }
        #expect(throws: AppAttestError(.appIDMismatch, "rpIdHash is not the hash of the app id")) {
            try verifier(fixture, appID: "ABCDE12345.com.example.other").verifyAssertion(
                object, clientData: clientData, publicKey: key.publicKey, storedCounter: 0)
        }
    }

    @Test func assertionSignedByAnotherKeyVerifiesOnlyWithThatKey() async throws {
        let fixture = try AppAttestFixture.load("node-app-attest-development")
        let assertion = try #require(fixture.assertion)
        #expect(!assertion.public_key_is_attested_key)
        let object = Array(try #require(Data(base64Encoded: assertion.assertion_base64)))
        let clientData = Array(assertion.client_data_utf8.utf8)
        let ownKey = try P256.Signing.PublicKey(pemRepresentation: assertion.public_key_pem)
        #expect(
            try verifier(fixture).verifyAssertion(object, clientData: clientData, publicKey: ownKey, storedCounter: 0)
                == 1)
        let attested = try await verifier(fixture).verifyAttestation(
            fixture.attestationObject, keyID: fixture.keyID, clientDataHash: .hashing(fixture.challengeBytes))
        #expect(throws: AppAttestError.self) {
            try verifier(fixture).verifyAssertion(
                object, clientData: clientData, publicKey: attested.publicKey, storedCounter: 0)
        }
    }
}
