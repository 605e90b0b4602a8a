// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import Foundation
import Testing
import VettIDAttestation
import VettIDCore
import VettIDVerification
@_spi(FixedExpiryValidationTime) import X509

/// Every real attestation and assertion in `../shared/fixtures/appattest/real` (43 devices from iOS 14 to
/// iOS 27, development and production, plus a standalone iOS 27 assertion) through the verifier.
@Suite struct RealAppAttestFixtureTests {
    func verifier(_ fixture: RealAppAttestFixture, appID: String? = nil, at time: Date? = nil) -> AppAttestVerifier {
        AppAttestVerifier(
            configuration: .init(
                appID: appID ?? fixture.app_id,
                allowedEnvironments: [.development, .production],
                trustedRoots: [AppleAppAttestationRoot.certificate],
                chainPolicy: RFC5280Policy(fixedExpiryValidationTime: time ?? fixture.validationTime)
            )
        )
    }

    func clientDataHash(_ fixture: RealAppAttestFixture) throws -> AppAttestClientDataHash {
        switch fixture.client_data_hash_kind {
        case "sha256": return .hashing(fixture.challengeBytes)
        case "raw": return .raw(fixture.challengeBytes)
        default: throw FixtureError(reason: "\(fixture.id): unknown client_data_hash_kind")
        }
    }

    /// The key that signed an assertion: the stored PEM key, or the fixture's attested key.
    func signingKey(_ fixture: RealAppAttestFixture, _ assertion: RealAppAttestFixture.Assertion) async throws
        -> P256.Signing.PublicKey
    {
        if let pem = assertion.public_key_pem { return try P256.Signing.PublicKey(pemRepresentation: pem) }
        return try await verifier(fixture).verifyAttestation(
            fixture.attestationObject, keyID: fixture.keyID, clientDataHash: clientDataHash(fixture)
        ).publicKey
    }

    struct FixtureError: Error { let reason: String }

    @Test func allNamesArePresent() {
        #expect(RealAppAttestFixture.names.count == 44)
        #expect(RealAppAttestFixture.attestationNames.count == 43)
        #expect(RealAppAttestFixture.assertionCases.count == 20)
        for ios27 in ["apple-guide-2026-production", "ricardo-ios27-2026-10", "zerinix-ios27-assertion"] {
            #expect(RealAppAttestFixture.names.contains(ios27))
        }
    }

    @Test(arguments: RealAppAttestFixture.attestationNames)
    func realAttestationVerifiesInItsEnvironment(name: String) async throws {
        let fixture = try RealAppAttestFixture.load(name)
        let expected = try #require(fixture.expected)
        let hash = try clientDataHash(fixture)
        #expect(hash.bytes == hex(expected.client_data_hash_hex))
        let environment: AppAttestEnvironment = fixture.environment == "production" ? .production : .development
        let key = try await verifier(fixture).verifyAttestation(
            fixture.attestationObject, keyID: fixture.keyID, clientDataHash: hash)
        #expect(key.environment == environment)
        #expect(Array(key.publicKey.x963Representation) == hex(expected.public_key_x962_uncompressed_hex))
        #expect(Array(SHA256.hash(data: key.receipt)) == hex(expected.receipt_sha256_hex))
        #expect(key.keyID == fixture.keyID)
        #expect(key.counter == 0)

        // The same object is refused in the environment it was not made for, with another challenge,
        // for another app, and once its leaf has expired.
        let other: AppAttestEnvironment = environment == .production ? .development : .production
        let wrongEnvironment = AppAttestVerifier(
            configuration: .init(
                appID: fixture.app_id, allowedEnvironments: [other],
                trustedRoots: [AppleAppAttestationRoot.certificate],
                chainPolicy: RFC5280Policy(fixedExpiryValidationTime: fixture.validationTime)))
        await #expect(throws: AppAttestError.Code.environmentNotAllowed) {
            try await code {
                try await wrongEnvironment.verifyAttestation(
                    fixture.attestationObject, keyID: fixture.keyID, clientDataHash: hash)
            }
        }
        await #expect(throws: AppAttestError.Code.nonceMismatch) {
            try await code {
                try await verifier(fixture).verifyAttestation(
                    fixture.attestationObject, keyID: fixture.keyID,
                    clientDataHash: .hashing(Array("another challenge".utf8)))
            }
        }
        await #expect(throws: AppAttestError.Code.appIDMismatch) {
            try await code {
                try await verifier(fixture, appID: "ABCDE12345.com.example.other").verifyAttestation(
                    fixture.attestationObject, keyID: fixture.keyID, clientDataHash: hash)
            }
        }
        await #expect(throws: AppAttestError.Code.untrustedCertificateChain) {
            try await code {
                try await verifier(fixture, at: Date()).verifyAttestation(
                    fixture.attestationObject, keyID: fixture.keyID, clientDataHash: hash)
            }
        }
    }

    @Test(arguments: RealAppAttestFixture.assertionCases)
    func realAssertionVerifiesOnceWithItsKey(testCase: String) async throws {
        let parts = testCase.split(separator: "#")
        let fixture = try RealAppAttestFixture.load(String(parts[0]))
        let assertion = fixture.assertions[try #require(Int(parts[1]))]
        let key = try await signingKey(fixture, assertion)
        let object = assertion.object
        let counter = try verifier(fixture).verifyAssertion(
            object, clientData: assertion.clientData, publicKey: key, storedCounter: assertion.previous_counter)
        #expect(counter == assertion.expected_counter)

        // Replayed, made for another app, over other client data, or checked with another key: refused.
        await #expect(throws: AppAttestError.Code.counterNotIncreased) {
            try await code {
                try verifier(fixture).verifyAssertion(
                    object, clientData: assertion.clientData, publicKey: key, storedCounter: counter)
            }
        }
        await #expect(throws: AppAttestError.Code.appIDMismatch) {
            try await code {
                try verifier(fixture, appID: "ABCDE12345.com.example.other").verifyAssertion(
                    object, clientData: assertion.clientData, publicKey: key, storedCounter: 0)
            }
        }
        await #expect(throws: AppAttestError.Code.invalidAssertionSignature) {
            try await code {
                try verifier(fixture).verifyAssertion(
                    object, clientData: assertion.clientData + [0x20], publicKey: key, storedCounter: 0)
            }
        }
        let stranger = P256.Signing.PrivateKey().publicKey
        await #expect(throws: AppAttestError.Code.invalidAssertionSignature) {
            try await code {
                try verifier(fixture).verifyAssertion(
                    object, clientData: assertion.clientData, publicKey: stranger, storedCounter: 0)
            }
        }
    }

    @Test(arguments: ["ricardo-ios27-2026-10", "zerinix-ios27-assertion"])
    func ios27AssertionsCarryTheExtensionMapAfterTheHeader(name: String) throws {
        let assertion = try #require(try RealAppAttestFixture.load(name).assertions.first)
        #expect(assertion.authenticator_data_length > 37)
        // Pull authenticatorData out of the assertion by the length the fixture records: it is the last
        // item of the CBOR map, a byte string.
        let object = assertion.object
        let authenticatorData = Array(object.suffix(assertion.authenticator_data_length))
        let parsed = try AssertionAuthenticatorData(bytes: authenticatorData)
        #expect(parsed.flags == 0xC0)
        #expect(parsed.counter == assertion.expected_counter)
        #expect(parsed.extensions.count == assertion.authenticator_data_length - 37)
        #expect(String(decoding: parsed.extensions, as: UTF8.self).contains("apple_bundle_version_01"))
    }
}

/// Runs `body` and rethrows an ``AppAttestError`` as its code alone, so tests compare codes.
func code<T>(_ body: () async throws -> T) async throws -> T {
    do {
        return try await body()
    } catch let error as AppAttestError {
        throw error.code
    }
}

extension AppAttestError.Code: Error {}
