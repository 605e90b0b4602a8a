// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import Foundation
import Testing
import VettIDAttestation
import VettIDCore
import VettIDSoftwareAttestation
import VettIDVerification
import X509

@Suite struct SoftwareAttesterTests {
    static let appID = "ABCDE12345.com.example.vettid"
    let authority: SoftwareAttestationAuthority
    let attester: SoftwareAttester
    let key = SoftwareAttestationKey()
    let challenge = Array("server-challenge-1".utf8)

    init() throws {
        authority = try SoftwareAttestationAuthority.generate()
        attester = SoftwareAttester(authority: authority, appID: Self.appID)
    }

    func verifier(
        appID: String = SoftwareAttesterTests.appID, environments: Set<AppAttestEnvironment> = [.development],
        trustSoftwareRoot: Bool = true
    ) -> AppAttestVerifier {
        AppAttestVerifier(
            configuration: .init(
                appID: appID,
                allowedEnvironments: environments,
                trustedRoots: trustSoftwareRoot
                    ? [AppleAppAttestationRoot.certificate, authority.rootCertificate]
                    : [AppleAppAttestationRoot.certificate]
            )
        )
    }

    func refusal(_ verifier: AppAttestVerifier, object: [UInt8], keyID: [UInt8]? = nil, challenge: [UInt8]? = nil) async
        -> AppAttestError.Code?
    {
        do throws(AppAttestError) {
            _ = try await verifier.verifyAttestation(
                object, keyID: keyID ?? key.keyID, clientDataHash: .hashing(challenge ?? self.challenge))
            return nil
        } catch {
            return error.code
        }
    }

    @Test func softwareAttestationVerifiesWhenItsRootIsTrusted() async throws {
        let object = try attester.attestKey(key, clientDataHash: Array(SHA256.hash(data: challenge)))
        let attested = try await verifier().verifyAttestation(
            object, keyID: key.keyID, clientDataHash: .hashing(challenge))
        #expect(attested.publicKey.rawRepresentation == key.privateKey.publicKey.rawRepresentation)
        #expect(attested.environment == .development)
        #expect(Data(key.keyID).base64EncodedString() == key.keyIDBase64)
    }

    @Test func clientDataHashBindsTheChallengeAndTheDeviceKey() async throws {
        let jkt = Array(SHA256.hash(data: Array("device key thumbprint input".utf8)))
        let otherJKT = Array(SHA256.hash(data: Array("another device key".utf8)))
        let bound = try #require(AppAttestClientDataHash.binding(challenge: challenge, keyThumbprint: jkt))
        #expect(bound.bytes == Array(SHA256.hash(data: challenge + jkt)))
        #expect(AppAttestClientDataHash.binding(challenge: challenge, keyThumbprint: [1, 2, 3]) == nil)
        let object = try attester.attestKey(key, clientDataHash: bound.bytes)
        _ = try await verifier().verifyAttestation(object, keyID: key.keyID, clientDataHash: bound)
        let otherDevice = try #require(AppAttestClientDataHash.binding(challenge: challenge, keyThumbprint: otherJKT))
        await #expect(throws: AppAttestError.self) {
            try await verifier().verifyAttestation(object, keyID: key.keyID, clientDataHash: otherDevice)
        }
    }

    @Test func softwareAttestationIsRefusedUnlessConfigured() async throws {
        let object = try attester.attestKey(key, clientDataHash: Array(SHA256.hash(data: challenge)))
        #expect(await refusal(verifier(trustSoftwareRoot: false), object: object) == .untrustedCertificateChain)
    }

    @Test func eachMisuseHasItsOwnCode() async throws {
        let object = try attester.attestKey(key, clientDataHash: Array(SHA256.hash(data: challenge)))
        #expect(await refusal(verifier(), object: object) == nil)
        #expect(await refusal(verifier(), object: object, challenge: Array("other".utf8)) == .nonceMismatch)
        #expect(await refusal(verifier(), object: object, keyID: SoftwareAttestationKey().keyID) == .keyIDMismatch)
        #expect(await refusal(verifier(appID: "ABCDE12345.com.example.other"), object: object) == .appIDMismatch)
        #expect(await refusal(verifier(environments: [.production]), object: object) == .environmentNotAllowed)
        let production = SoftwareAttester(authority: authority, appID: Self.appID, environment: .production)
        let productionObject = try production.attestKey(key, clientDataHash: Array(SHA256.hash(data: challenge)))
        #expect(await refusal(verifier(environments: [.production]), object: productionObject) == nil)
        #expect(await refusal(verifier(), object: Array(object.dropLast())) == .malformedAttestation)
        #expect(await refusal(verifier(), object: [0xA0]) == .malformedAttestation)
    }

    @Test func anotherAuthorityIsNotTrusted() async throws {
        let rogue = SoftwareAttester(authority: try SoftwareAttestationAuthority.generate(), appID: Self.appID)
        let object = try rogue.attestKey(key, clientDataHash: Array(SHA256.hash(data: challenge)))
        #expect(await refusal(verifier(), object: object) == .untrustedCertificateChain)
    }

    @Test(arguments: [SoftwareAttester.AssertionShape.header, .ios27])
    func assertionsNeedAStrictlyIncreasingCounter(shape: SoftwareAttester.AssertionShape) throws {
        let clientData = Array(#"{"challenge":"abc","action":"token"}"#.utf8)
        let verifier = verifier()
        let first = try attester.generateAssertion(key, clientData: clientData, counter: 1, shape: shape)
        #expect(
            try verifier.verifyAssertion(
                first, clientData: clientData, publicKey: key.privateKey.publicKey, storedCounter: 0) == 1)
        // Replayed: the stored counter is now 1.
        #expect(throws: AppAttestError(.counterNotIncreased, "the counter did not increase")) {
            try verifier.verifyAssertion(
                first, clientData: clientData, publicKey: key.privateKey.publicKey, storedCounter: 1)
        }
        // Lower than the stored counter.
        let lower = try attester.generateAssertion(key, clientData: clientData, counter: 3, shape: shape)
        #expect(throws: AppAttestError(.counterNotIncreased, "the counter did not increase")) {
            try verifier.verifyAssertion(
                lower, clientData: clientData, publicKey: key.privateKey.publicKey, storedCounter: 5)
        }
        #expect(
            try verifier.verifyAssertion(
                lower, clientData: clientData, publicKey: key.privateKey.publicKey, storedCounter: 2) == 3)
        // Another key.
        #expect(throws: AppAttestError(.invalidAssertionSignature, "the assertion signature does not verify")) {
            try verifier.verifyAssertion(
                first, clientData: clientData, publicKey: P256.Signing.PrivateKey().publicKey, storedCounter: 0)
        }
        #expect(throws: AppAttestError.self) {
            try verifier.verifyAssertion(
                [0x01], clientData: clientData, publicKey: key.privateKey.publicKey, storedCounter: 0)
        }
    }
}
