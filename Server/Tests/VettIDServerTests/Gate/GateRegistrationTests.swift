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
import VettIDTestSupport

@testable import VettIDServer

/// `POST /attest/challenge` and `POST /attest/register`: the software attester's attestation is accepted only
/// under a trusted root, bound to the challenge and the DPoP key; each refusal has its own code.
@Suite struct GateRegistrationTests {
    @Test(arguments: TestEngine.available)
    func registrationStoresTheKeyBoundToTheDeviceKey(engine: TestEngine) async throws {
        try await TestApp.withApp(engine, configuration: GateTest.configuration()) { client, app in
            let device = GateTest.Device()
            let nonce = try await client.gateNonce(device)
            let response = try await client.gateRegister(
                device, challenge: try await client.gateChallenge(), nonce: nonce)
            #expect(response.status == .created)
            #expect(response.json["key_id"] as? String == device.keyID)
            #expect(response.json["status"] as? String == "registered")
            #expect(response.json["environment"] as? String == "software")
            #expect(response.headers[.dpopNonce] != nil)

            let stored = try #require(
                try await AttestedKeyRepository(store: app.components.store).find(keyID: device.keyID))
            #expect(stored.counter == 0)
            #expect(stored.deviceJKT == device.jkt)
            #expect(stored.environment == "software")
            #expect(stored.publicKey.rawRepresentation == device.attestationKey.privateKey.publicKey.rawRepresentation)

            // The same key cannot be registered twice.
            let again = try await client.gateRegister(device, challenge: try await client.gateChallenge(), nonce: nonce)
            #expect(again.status == .conflict)
            #expect(again.errorCode == "attestation_key_exists")
        }
    }

    @Test(arguments: TestEngine.available)
    func aChallengeIsSingleUse(engine: TestEngine) async throws {
        try await TestApp.withApp(engine, configuration: GateTest.configuration()) { client, _ in
            let device = GateTest.Device()
            let nonce = try await client.gateNonce(device)
            let challenge = try await client.gateChallenge()
            #expect(try await client.gateRegister(device, challenge: challenge, nonce: nonce).status == .created)
            let replay = try await client.gateRegister(GateTest.Device(), challenge: challenge, nonce: nonce)
            #expect(replay.status == .gone)
            #expect(replay.errorCode == "challenge_used")
        }
    }

    @Test(arguments: TestEngine.available)
    func anExpiredChallengeIsRefused(engine: TestEngine) async throws {
        try await TestApp.withApp(engine, configuration: GateTest.configuration()) { client, app in
            var device = GateTest.Device()
            let clock = app.clock
            device.clock = clock
            let challenge = try await client.gateChallenge()
            clock.advance(301)
            let nonce = try await client.gateNonce(device)
            let response = try await client.gateRegister(device, challenge: challenge, nonce: nonce)
            #expect(response.status == .gone)
            #expect(response.errorCode == "challenge_expired")
        }
    }

    @Test func anUnknownChallengeIsRefused() async throws {
        try await TestApp.withApp(.sqlite, configuration: GateTest.configuration()) { client, _ in
            let device = GateTest.Device()
            let nonce = try await client.gateNonce(device)
            let forged = Base64URL.encode([UInt8](repeating: 7, count: 32))
            let response = try await client.gateRegister(device, challenge: forged, nonce: nonce)
            #expect(response.status == .badRequest)
            #expect(response.errorCode == "challenge_unknown")
        }
    }

    @Test func anAssertChallengeCannotRegister() async throws {
        try await TestApp.withApp(.sqlite, configuration: GateTest.configuration()) { client, _ in
            let device = GateTest.Device()
            let nonce = try await client.gateNonce(device)
            let response = try await client.gateRegister(
                device, challenge: try await client.gateChallenge("assert"), nonce: nonce)
            #expect(response.errorCode == "challenge_wrong_purpose")
        }
    }

    @Test func aTamperedNonceIsRefused() async throws {
        try await TestApp.withApp(.sqlite, configuration: GateTest.configuration()) { client, _ in
            let device = GateTest.Device()
            let nonce = try await client.gateNonce(device)
            let challenge = try await client.gateChallenge()
            // Attested over another challenge: the certified nonce does not match the issued challenge.
            let other = try device.attestation(challenge: Base64URL.encode([UInt8](repeating: 1, count: 32)))
            let response = try await client.gateRegister(device, challenge: challenge, nonce: nonce, attestation: other)
            #expect(response.status == .badRequest)
            #expect(response.errorCode == "attestation_invalid_nonce")
        }
    }

    @Test func anAttestationForAnotherDPoPKeyIsRefused() async throws {
        try await TestApp.withApp(.sqlite, configuration: GateTest.configuration()) { client, _ in
            let device = GateTest.Device()
            let thief = GateTest.Device()
            let nonce = try await client.gateNonce(thief)
            let challenge = try await client.gateChallenge()
            // The device's attestation (bound to its jkt), replayed by another DPoP key naming itself.
            let response = try await client.gateRegister(
                thief, challenge: challenge, nonce: nonce, keyID: device.keyID,
                attestation: try device.attestation(challenge: challenge))
            #expect(response.errorCode == "attestation_invalid_nonce")
            // And a proof by one key naming another key as device_key_jwk.
            let mismatch = try await client.gateRegister(
                thief, challenge: try await client.gateChallenge(), nonce: nonce, jwk: device.jwk)
            #expect(mismatch.errorCode == "device_key_mismatch")
        }
    }

    @Test func aWrongAppIDIsRefused() async throws {
        try await TestApp.withApp(.sqlite, configuration: GateTest.configuration()) { client, _ in
            var device = GateTest.Device()
            device.attester = SoftwareAttester(authority: GateTest.authority, appID: "ZZZZZ99999.com.example.other")
            let nonce = try await client.gateNonce(device)
            let response = try await client.gateRegister(
                device, challenge: try await client.gateChallenge(), nonce: nonce)
            #expect(response.errorCode == "attestation_wrong_app_id")
        }
    }

    @Test func aWrongKeyIDIsRefused() async throws {
        try await TestApp.withApp(.sqlite, configuration: GateTest.configuration()) { client, _ in
            let device = GateTest.Device()
            let nonce = try await client.gateNonce(device)
            let response = try await client.gateRegister(
                device, challenge: try await client.gateChallenge(), nonce: nonce,
                keyID: SoftwareAttestationKey().keyIDBase64)
            #expect(response.errorCode == "attestation_wrong_key_id")
        }
    }

    @Test func aWrongEnvironmentIsRefused() async throws {
        try await TestApp.withApp(.sqlite, configuration: GateTest.configuration(environments: [.production])) {
            client, _ in
            let device = GateTest.Device()  // attests as development
            let nonce = try await client.gateNonce(device)
            let response = try await client.gateRegister(
                device, challenge: try await client.gateChallenge(), nonce: nonce)
            #expect(response.errorCode == "attestation_wrong_environment")
        }
    }

    @Test func theSoftwareRootIsUntrustedUnlessConfigured() async throws {
        try await TestApp.withApp(.sqlite, configuration: GateTest.configuration(trustSoftwareRoot: false)) {
            client, _ in
            let device = GateTest.Device()
            let nonce = try await client.gateNonce(device)
            let response = try await client.gateRegister(
                device, challenge: try await client.gateChallenge(), nonce: nonce)
            #expect(response.status == .badRequest)
            #expect(response.errorCode == "attestation_untrusted_root")
        }
        // Trusted configuration, but another authority's chain.
        try await TestApp.withApp(.sqlite, configuration: GateTest.configuration()) { client, _ in
            var device = GateTest.Device()
            device.attester = SoftwareAttester(
                authority: try SoftwareAttestationAuthority.generate(), appID: GateTest.appID)
            let nonce = try await client.gateNonce(device)
            let response = try await client.gateRegister(
                device, challenge: try await client.gateChallenge(), nonce: nonce)
            #expect(response.errorCode == "attestation_untrusted_root")
        }
    }

    @Test func theDefaultConfigurationTrustsNoSoftwareRootAndHasNoGrants() {
        let gate = GateConfiguration()
        #expect(gate.trustSoftwareRoot == false)
        #expect(gate.developmentTokens.isEmpty)
        #expect(gate.appID == nil)
        #expect(gate.upstreams.isEmpty)
    }

    @Test func registrationNeedsAProofWithTheServerNonce() async throws {
        try await TestApp.withApp(.sqlite, configuration: GateTest.configuration()) { client, _ in
            let device = GateTest.Device()
            let challenge = try await client.gateChallenge()
            let first = try await client.post(
                "/attest/register",
                [
                    "key_id": device.keyID, "attestation_object": try device.attestation(challenge: challenge),
                    "challenge": challenge, "device_key_jwk": device.jwk,
                ],
                headers: [.dpop: try await device.proof("POST", "/attest/register", nonce: nil)])
            #expect(first.status == .badRequest)
            #expect(first.errorCode == "use_dpop_nonce")
            let nonce = try #require(first.headers[.dpopNonce])
            // The refused request did not use up the challenge.
            #expect(try await client.gateRegister(device, challenge: challenge, nonce: nonce).status == .created)
        }
    }
}
