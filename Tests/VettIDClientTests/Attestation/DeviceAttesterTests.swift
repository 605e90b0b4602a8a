// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing
import VettIDAttestation
import VettIDCrypto
import VettIDSoftwareAttestation
import VettIDSoftwareAttestationClient
import VettIDVerification

@testable import VettIDClient

/// A scripted stand-in for `DCAppAttestService`: errors are `NSError`s in the DeviceCheck domain, as on a device.
actor FakeAppAttestService: AppAttestService {
    nonisolated let isSupported: Bool
    private var attestFailures: [Int]
    private var assertionFailures: [Int]
    private(set) var generatedKeys: [String] = []
    private(set) var attestedKeys: [String] = []
    private(set) var assertionKeys: [String] = []
    private(set) var clientDataHashes: [Data] = []

    init(isSupported: Bool = true, attestFailures: [Int] = [], assertionFailures: [Int] = []) {
        self.isSupported = isSupported
        self.attestFailures = attestFailures
        self.assertionFailures = assertionFailures
    }

    static func dcError(_ code: Int) -> NSError {
        NSError(domain: AppAttestErrorClassifier.deviceCheckErrorDomain, code: code)
    }

    func generateKey() async throws -> String {
        let keyID = "key-\(generatedKeys.count + 1)"
        generatedKeys.append(keyID)
        return keyID
    }

    func attestKey(_ keyID: String, clientDataHash: Data) async throws -> Data {
        clientDataHashes.append(clientDataHash)
        if !attestFailures.isEmpty { throw Self.dcError(attestFailures.removeFirst()) }
        attestedKeys.append(keyID)
        return Data("attestation-of-\(keyID)".utf8)
    }

    func generateAssertion(_ keyID: String, clientDataHash: Data) async throws -> Data {
        clientDataHashes.append(clientDataHash)
        if !assertionFailures.isEmpty { throw Self.dcError(assertionFailures.removeFirst()) }
        assertionKeys.append(keyID)
        return Data("assertion-by-\(keyID)".utf8)
    }
}

@Suite("Device attesters")
struct DeviceAttesterTests {
    static let challenge = Array(repeating: UInt8(7), count: 32)
    static let thumbprint = Array(repeating: UInt8(9), count: 32)

    @Test("DCError mapping: only code 3 is invalidKey")
    func classification() {
        #expect(AppAttestErrorClassifier.code(forDCErrorCode: 0) == .systemFailure)
        #expect(AppAttestErrorClassifier.code(forDCErrorCode: 1) == .unsupported)
        #expect(AppAttestErrorClassifier.code(forDCErrorCode: 2) == .invalidInput)
        #expect(AppAttestErrorClassifier.code(forDCErrorCode: 3) == .invalidKey)
        #expect(AppAttestErrorClassifier.code(forDCErrorCode: 4) == .serverUnavailable)
        #expect(AppAttestErrorClassifier.code(for: NSError(domain: "other", code: 3)) == .systemFailure)
    }

    @Test(
        "attestKey: invalidKey resets the key and retries once with a new key; clientDataHash binds challenge and jkt")
    func attestRetriesOnInvalidKey() async throws {
        let service = FakeAppAttestService(attestFailures: [3])
        let store = InMemorySecureStore()
        let attester = AppAttestAttester(service: service, store: store)
        let attestation = try await attester.attestKey(challenge: Self.challenge, deviceKeyThumbprint: Self.thumbprint)
        #expect(attestation.keyID == "key-2")
        #expect(await service.generatedKeys == ["key-1", "key-2"])
        #expect(try await attester.attestedKeyID() == "key-2")
        let expected = AppAttestClientDataHash.binding(challenge: Self.challenge, keyThumbprint: Self.thumbprint)?.bytes
        #expect(await service.clientDataHashes.allSatisfy { Array($0) == expected })
    }

    @Test("attestKey: a second invalidKey is reported; nothing is stored")
    func attestGivesUpAfterOneRetry() async throws {
        let service = FakeAppAttestService(attestFailures: [3, 3])
        let attester = AppAttestAttester(service: service, store: InMemorySecureStore())
        await #expect(throws: DeviceAttestationError.self) {
            _ = try await attester.attestKey(challenge: Self.challenge, deviceKeyThumbprint: Self.thumbprint)
        }
        #expect(await service.generatedKeys.count == 2)
        #expect(try await attester.attestedKeyID() == nil)
    }

    @Test(
        "attestKey: serverUnavailable keeps the generated key; the retry (even after a relaunch) attests the same key")
    func serverUnavailableRetriesWithTheSameKey() async throws {
        let service = FakeAppAttestService(attestFailures: [4])
        let store = InMemorySecureStore()
        let attester = AppAttestAttester(service: service, store: store)
        do throws(DeviceAttestationError) {
            _ = try await attester.attestKey(challenge: Self.challenge, deviceKeyThumbprint: Self.thumbprint)
            Issue.record("expected server_unavailable")
        } catch {
            #expect(error.code == .serverUnavailable)
        }
        #expect(try await attester.pendingKeyID() == "key-1")
        #expect(try await attester.attestedKeyID() == nil)

        // A new attester over the same store, as after a relaunch.
        let relaunched = AppAttestAttester(service: service, store: store)
        let attestation = try await relaunched.attestKey(
            challenge: Self.challenge, deviceKeyThumbprint: Self.thumbprint)
        #expect(attestation.keyID == "key-1")
        #expect(await service.generatedKeys == ["key-1"], "no second key")
        #expect(await service.attestedKeys == ["key-1"])
        #expect(try await relaunched.attestedKeyID() == "key-1")
        #expect(try await relaunched.pendingKeyID() == nil)
        let hashes = await service.clientDataHashes
        #expect(hashes.count == 2 && hashes[0] == hashes[1], "the same client data hash for the same challenge")
    }

    @Test("attestKey: a pending key App Attest calls invalid (attested already, or gone) is replaced by a new key once")
    func invalidPendingKeyIsReplaced() async throws {
        let service = FakeAppAttestService(attestFailures: [4, 3])
        let store = InMemorySecureStore()
        let attester = AppAttestAttester(service: service, store: store)
        await #expect(throws: DeviceAttestationError.self) {
            _ = try await attester.attestKey(challenge: Self.challenge, deviceKeyThumbprint: Self.thumbprint)
        }
        let attestation = try await attester.attestKey(challenge: Self.challenge, deviceKeyThumbprint: Self.thumbprint)
        #expect(attestation.keyID == "key-2")
        #expect(await service.generatedKeys == ["key-1", "key-2"])
        #expect(try await attester.pendingKeyID() == nil)
        try await attester.resetKey()
        #expect(try await attester.attestedKeyID() == nil)
    }

    @Test("codes 0 and 2 are not invalidKey: no retry, no reset", arguments: [0, 2])
    func otherCodesDoNotReset(code: Int) async throws {
        let service = FakeAppAttestService(attestFailures: [code], assertionFailures: [code])
        let store = InMemorySecureStore()
        try await store.set(Data("existing".utf8), forKey: "vettid.appattest.key-id")
        let attester = AppAttestAttester(service: service, store: store)
        do throws(DeviceAttestationError) {
            _ = try await attester.attestKey(challenge: Self.challenge, deviceKeyThumbprint: Self.thumbprint)
            Issue.record("expected a failure")
        } catch {
            #expect(error.code == AppAttestErrorClassifier.code(forDCErrorCode: code))
            #expect(error.code != .invalidKey)
        }
        #expect(await service.generatedKeys.count == 1)
        do throws(DeviceAttestationError) {
            _ = try await attester.generateAssertion(challenge: Self.challenge, deviceKeyThumbprint: Self.thumbprint)
            Issue.record("expected a failure")
        } catch {
            #expect(error.code != .invalidKey)
        }
        #expect(try await attester.attestedKeyID() == "existing")
    }

    @Test("generateAssertion: invalidKey forgets the key and reports invalid_key; without a key: key_not_attested")
    func assertionInvalidKey() async throws {
        let service = FakeAppAttestService(assertionFailures: [3])
        let attester = AppAttestAttester(service: service, store: InMemorySecureStore())
        do throws(DeviceAttestationError) {
            _ = try await attester.generateAssertion(challenge: Self.challenge, deviceKeyThumbprint: Self.thumbprint)
            Issue.record("expected key_not_attested")
        } catch {
            #expect(error.code == .keyNotAttested)
        }
        _ = try await attester.attestKey(challenge: Self.challenge, deviceKeyThumbprint: Self.thumbprint)
        do throws(DeviceAttestationError) {
            _ = try await attester.generateAssertion(challenge: Self.challenge, deviceKeyThumbprint: Self.thumbprint)
            Issue.record("expected invalid_key")
        } catch {
            #expect(error.code == .invalidKey)
        }
        #expect(try await attester.attestedKeyID() == nil)
        _ = try await attester.attestKey(challenge: Self.challenge, deviceKeyThumbprint: Self.thumbprint)
        let assertion = try await attester.generateAssertion(
            challenge: Self.challenge, deviceKeyThumbprint: Self.thumbprint)
        #expect(assertion.keyID == "key-2")
    }

    @Test("unsupported devices and malformed thumbprints are refused before calling App Attest")
    func refusals() async throws {
        let unsupported = AppAttestAttester(
            service: FakeAppAttestService(isSupported: false), store: InMemorySecureStore())
        do throws(DeviceAttestationError) {
            _ = try await unsupported.attestKey(challenge: Self.challenge, deviceKeyThumbprint: Self.thumbprint)
            Issue.record("expected unsupported")
        } catch {
            #expect(error.code == .unsupported)
        }
        let service = FakeAppAttestService()
        let attester = AppAttestAttester(service: service, store: InMemorySecureStore())
        do throws(DeviceAttestationError) {
            _ = try await attester.attestKey(challenge: Self.challenge, deviceKeyThumbprint: [1, 2, 3])
            Issue.record("expected invalid_challenge")
        } catch {
            #expect(error.code == .invalidChallenge)
        }
        #expect(await service.generatedKeys.isEmpty)
    }

    @Test("software attester output passes VettIDAttestation's verifier trusting the software root")
    func softwareAttesterVerifies() async throws {
        let authority = try SoftwareAttestationAuthority.generate()
        let appID = "ABCDE12345.dev.vettid.tests"
        let store = InMemorySecureStore()
        let attester = SoftwareDeviceAttester(
            attester: SoftwareAttester(authority: authority, appID: appID), store: store)
        let verifier = AppAttestVerifier(
            configuration: .init(
                appID: appID, allowedEnvironments: [.development], trustedRoots: [authority.rootCertificate])
        )
        let attestChallenge = Array(repeating: UInt8(1), count: 32)
        let attestation = try await attester.attestKey(challenge: attestChallenge, deviceKeyThumbprint: Self.thumbprint)
        let keyIDText = try #require(attestation.keyID)
        let keyID = try #require(Data(base64Encoded: keyIDText))
        let attested = try await verifier.verifyAttestation(
            Array(try #require(attestation.attestationObject)),
            keyID: Array(keyID),
            clientDataHash: try #require(
                AppAttestClientDataHash.binding(challenge: attestChallenge, keyThumbprint: Self.thumbprint))
        )
        #expect(attestation.format == .software)

        // Bound to the device key: another thumbprint does not verify.
        await #expect(throws: AppAttestError.self) {
            _ = try await verifier.verifyAttestation(
                Array(attestation.attestationObject!),
                keyID: Array(keyID),
                clientDataHash: AppAttestClientDataHash.binding(
                    challenge: attestChallenge, keyThumbprint: Array(repeating: 8, count: 32))!
            )
        }

        var counter: UInt32 = 0
        for round in 1...3 {
            let challenge = Array(repeating: UInt8(round + 1), count: 32)
            let assertion = try await attester.generateAssertion(
                challenge: challenge, deviceKeyThumbprint: Self.thumbprint)
            #expect(assertion.keyID == attestation.keyID)
            counter = try verifier.verifyAssertion(
                Array(try #require(assertion.assertion)),
                clientData: challenge + Self.thumbprint,
                publicKey: attested.publicKey,
                storedCounter: counter
            )
            #expect(counter == UInt32(round))
        }
        // The counter persists: a new attester instance over the same store continues from 3.
        let reopened = SoftwareDeviceAttester(
            attester: SoftwareAttester(authority: authority, appID: appID), store: store)
        let next = try await reopened.generateAssertion(challenge: [42], deviceKeyThumbprint: Self.thumbprint)
        #expect(
            try verifier.verifyAssertion(
                Array(next.assertion!), clientData: [42] + Self.thumbprint, publicKey: attested.publicKey,
                storedCounter: 3) == 4)
    }

    @Test("an untrusted software root is refused by a verifier that trusts only Apple's root")
    func softwareRootNotTrustedByDefault() async throws {
        let authority = try SoftwareAttestationAuthority.generate()
        let appID = "ABCDE12345.dev.vettid.tests"
        let attester = SoftwareDeviceAttester(
            attester: SoftwareAttester(authority: authority, appID: appID), store: InMemorySecureStore())
        let attestation = try await attester.attestKey(challenge: [1, 2, 3], deviceKeyThumbprint: Self.thumbprint)
        let verifier = AppAttestVerifier(configuration: .init(appID: appID, allowedEnvironments: [.development]))
        do throws(AppAttestError) {
            _ = try await verifier.verifyAttestation(
                Array(attestation.attestationObject!),
                keyID: Array(Data(base64Encoded: attestation.keyID!)!),
                clientDataHash: AppAttestClientDataHash.binding(challenge: [1, 2, 3], keyThumbprint: Self.thumbprint)!
            )
            Issue.record("expected an untrusted chain")
        } catch {
            #expect(error.code == .untrustedCertificateChain)
        }
    }

    @Test("the development attester hands out its token and never shows it")
    func developmentAttester() async throws {
        let attester = DevelopmentTokenAttester(token: "dev-secret")
        let assertion = try await attester.generateAssertion(challenge: [], deviceKeyThumbprint: [])
        #expect(assertion.developmentToken == "dev-secret")
        #expect(assertion.format == .development)
        #expect(!String(describing: attester).contains("dev-secret"))
    }
}
