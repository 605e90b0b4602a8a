// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import Foundation
import Testing
import VettIDCore

@testable import VettIDAttestation
@testable import VettIDSoftwareAttestation
@testable import VettIDVerification

/// Fields `attestKey` always writes correctly, forged through the attester's internal builders, so every
/// attestation refusal code is provoked with a chain the verifier trusts.
@Suite struct ForgedAttestationTests {
    static let appID = "ABCDE12345.com.example.vettid"
    let attester: SoftwareAttester
    let verifier: AppAttestVerifier
    let key = SoftwareAttestationKey()
    let clientDataHash = Array(SHA256.hash(data: Array("challenge".utf8)))

    init() throws {
        let authority = try SoftwareAttestationAuthority.generate()
        attester = SoftwareAttester(authority: authority, appID: Self.appID)
        verifier = AppAttestVerifier(
            configuration: .init(
                appID: Self.appID, allowedEnvironments: [.development], trustedRoots: [authority.rootCertificate])
        )
    }

    func refusal(_ object: [UInt8]) async -> AppAttestError.Code? {
        do throws(AppAttestError) {
            _ = try await verifier.verifyAttestation(object, keyID: key.keyID, clientDataHash: .raw(clientDataHash))
            return nil
        } catch {
            return error.code
        }
    }

    @Test func aWellFormedForgeryBaselineIsAccepted() async throws {
        let object = try attester.attestationObject(
            for: key, authData: attester.attestationAuthenticatorData(for: key), clientDataHash: clientDataHash,
            now: Date())
        #expect(await refusal(object) == nil)
    }

    @Test func refusesANonZeroCounter() async throws {
        let authData = attester.attestationAuthenticatorData(for: key, counter: 1)
        #expect(
            await refusal(
                try attester.attestationObject(
                    for: key, authData: authData, clientDataHash: clientDataHash, now: Date())) == .nonZeroCounter)
    }

    @Test func refusesAnotherCredentialID() async throws {
        let authData = attester.attestationAuthenticatorData(for: key, credentialID: [UInt8](repeating: 7, count: 32))
        #expect(
            await refusal(
                try attester.attestationObject(
                    for: key, authData: authData, clientDataHash: clientDataHash, now: Date())) == .credentialIDMismatch
        )
    }

    @Test func refusesAnotherFormat() async throws {
        let object = try attester.attestationObject(
            for: key, authData: attester.attestationAuthenticatorData(for: key), clientDataHash: clientDataHash,
            now: Date(), format: "packed")
        #expect(await refusal(object) == .unsupportedFormat)
    }

    @Test func refusesACertificateWithoutTheNonceExtension() async throws {
        let object = try attester.attestationObject(
            for: key, authData: attester.attestationAuthenticatorData(for: key), clientDataHash: clientDataHash,
            now: Date(), includeNonceExtension: false
        )
        #expect(await refusal(object) == .missingNonceExtension)
    }

    @Test func refusesTruncatedAuthenticatorData() async throws {
        let authData = Array(attester.attestationAuthenticatorData(for: key).prefix(40))
        #expect(
            await refusal(
                try attester.attestationObject(
                    for: key, authData: authData, clientDataHash: clientDataHash, now: Date()))
                == .malformedAuthenticatorData)
    }

    @Test func refusesAnExpiredCredentialCertificate() async throws {
        let longAgo = Date().addingTimeInterval(-400 * 86400)
        let object = try attester.attestationObject(
            for: key, authData: attester.attestationAuthenticatorData(for: key), clientDataHash: clientDataHash,
            now: longAgo)
        #expect(await refusal(object) == .untrustedCertificateChain)
    }

    @Test func refusesAGarbageCertificate() async throws {
        let object = CBORValue.map([
            CBORMapEntry(key: .text("fmt"), value: .text("apple-appattest")),
            CBORMapEntry(
                key: .text("attStmt"),
                value: .map([
                    CBORMapEntry(key: .text("x5c"), value: .array([.bytes([0x30, 0x03, 0x02, 0x01, 0x00])])),
                    CBORMapEntry(key: .text("receipt"), value: .bytes([])),
                ])
            ),
            CBORMapEntry(key: .text("authData"), value: .bytes(attester.attestationAuthenticatorData(for: key))),
        ]).encoded()
        #expect(await refusal(object) == .malformedCertificate)
    }
}
