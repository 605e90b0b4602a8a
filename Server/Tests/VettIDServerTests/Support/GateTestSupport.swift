// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

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

/// Shared parts of the Gate tests: a device (DPoP key + software App Attest key), a server configuration that
/// trusts a software attestation root, and the client side of challenge → register → token.
enum GateTest {
    static let origin = "https://api.vettid.test"
    static let appID = "ABCDE12345.com.vettid.gatetests"
    static let developmentToken = "dev-token-0123456789abcdef"

    /// One software attestation authority for the whole run (minting keys is slow).
    static let authority: SoftwareAttestationAuthority = try! SoftwareAttestationAuthority.generate()

    static func configuration(
        trustSoftwareRoot: Bool = true,
        environments: Set<AppAttestEnvironment> = [.production, .development],
        developmentTokens: [String] = [],
        upstreams: [String: GateUpstream] = [:],
        proxyMaxBodyBytes: Int = 4 << 20,
        readTimeout: Duration = .seconds(10)
    ) -> ServerConfiguration {
        var configuration = TestApp.configuration()
        configuration.publicURL = origin
        configuration.gate = GateConfiguration(
            appID: appID, allowedEnvironments: environments, trustSoftwareRoot: trustSoftwareRoot,
            softwareRoots: [authority.rootCertificate], developmentTokens: developmentTokens, upstreams: upstreams,
            proxyMaxBodyBytes: proxyMaxBodyBytes, upstreamConnectTimeout: .seconds(2), upstreamReadTimeout: readTimeout
        )
        return configuration
    }

    /// A device: its DPoP key and its App Attest key.
    struct Device: Sendable {
        let signer = SoftwareDPoPSigner()
        let attestationKey = SoftwareAttestationKey()
        var attester = SoftwareAttester(authority: GateTest.authority, appID: GateTest.appID, environment: .development)
        /// The time proofs are made at (tests that move the server clock move this one too).
        var clock: any WallClock = SystemWallClock()

        var jkt: String { signer.publicJWK.thumbprint }
        var jktBytes: [UInt8] { Base64URL.decode(jkt)! }
        var keyID: String { attestationKey.keyIDBase64 }
        var jwk: [String: Any] { ["kty": "EC", "crv": "P-256", "x": signer.publicJWK.x, "y": signer.publicJWK.y] }

        func proof(_ method: String, _ path: String, token: String? = nil, nonce: String?) async throws -> String {
            try await DPoPProofBuilder(signer: signer, clock: clock).proof(
                method: method, url: GateTest.origin + path, accessToken: token, nonce: nonce)
        }

        func attestation(challenge: String) throws -> String {
            let bytes = try #require(Base64URL.decode(challenge))
            let hash = try #require(AppAttestClientDataHash.binding(challenge: bytes, keyThumbprint: jktBytes))
            return Data(try attester.attestKey(attestationKey, clientDataHash: hash.bytes)).base64EncodedString()
        }

        func assertion(challenge: String, counter: UInt32) throws -> String {
            let bytes = try #require(Base64URL.decode(challenge))
            return Data(try attester.generateAssertion(attestationKey, clientData: bytes + jktBytes, counter: counter))
                .base64EncodedString()
        }
    }
}

extension TestClientProtocol {
    /// POST /attest/challenge → the challenge.
    func gateChallenge(_ purpose: String = "attest") async throws -> String {
        let response = try await post("/attest/challenge", ["purpose": purpose])
        #expect(response.status == .created)
        #expect(response.json["expires_in"] as? Int == 300)
        return try #require(response.json["challenge"] as? String)
    }

    /// A DPoP nonce, the way a client gets its first one: a proof without a nonce at /token is answered
    /// 400 `use_dpop_nonce` with `DPoP-Nonce`.
    func gateNonce(_ device: GateTest.Device) async throws -> String {
        let response = try await post(
            "/token", ["grant_type": "urn:vettid:params:grant-type:development", "development_token": "x"],
            headers: [.dpop: try await device.proof("POST", "/token", nonce: nil)])
        #expect(response.status == .badRequest)
        #expect(response.errorCode == "use_dpop_nonce")
        return try #require(response.headers[.dpopNonce])
    }

    /// POST /attest/register with the device's attestation over `challenge`.
    func gateRegister(
        _ device: GateTest.Device, challenge: String, nonce: String, keyID: String? = nil, attestation: String? = nil,
        jwk: [String: Any]? = nil
    ) async throws -> TestResponse {
        try await post(
            "/attest/register",
            [
                "key_id": keyID ?? device.keyID,
                "attestation_object": try attestation ?? device.attestation(challenge: challenge),
                "challenge": challenge, "device_key_jwk": jwk ?? device.jwk,
            ],
            headers: [.dpop: try await device.proof("POST", "/attest/register", nonce: nonce)])
    }

    /// POST /token with the app-attest grant: an assertion with `counter` over a fresh assert challenge.
    func gateToken(
        _ device: GateTest.Device, counter: UInt32, nonce: String, challenge: String? = nil, keyID: String? = nil
    ) async throws -> TestResponse {
        var challengeText = challenge ?? ""
        if challenge == nil { challengeText = try await gateChallenge("assert") }
        let challenge = challengeText
        return try await post(
            "/token",
            [
                "grant_type": "urn:vettid:params:grant-type:app-attest", "key_id": keyID ?? device.keyID,
                "challenge": challenge, "assertion": try device.assertion(challenge: challenge, counter: counter),
            ],
            headers: [.dpop: try await device.proof("POST", "/token", nonce: nonce)])
    }

    /// Challenge → register → token; returns the Gate access token and the nonce in use.
    func gateAccessToken(_ device: GateTest.Device) async throws -> (token: String, nonce: String) {
        let nonce = try await gateNonce(device)
        let registered = try await gateRegister(device, challenge: try await gateChallenge(), nonce: nonce)
        #expect(registered.status == .created)
        let token = try await gateToken(device, counter: 1, nonce: nonce)
        #expect(token.status == .ok)
        return (try #require(token.json["access_token"] as? String), nonce)
    }
}
