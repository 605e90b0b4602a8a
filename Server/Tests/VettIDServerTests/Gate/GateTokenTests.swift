// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
import VettIDAttestation
import VettIDCore
import VettIDCrypto
import VettIDTestSupport

@testable import VettIDServer

/// `POST /token`: the app-attest grant (assertion over the challenge and the DPoP key, strictly increasing
/// counter), the development grant, nonces, replayed proofs, and the audience split from member tokens.
@Suite struct GateTokenTests {
    @Test(arguments: TestEngine.available)
    func theAppAttestGrantIssuesADPoPBoundToken(engine: TestEngine) async throws {
        try await TestApp.withApp(engine, configuration: GateTest.configuration()) { client, app in
            let device = GateTest.Device()
            let nonce = try await client.gateNonce(device)
            #expect(
                try await client.gateRegister(device, challenge: try await client.gateChallenge(), nonce: nonce).status
                    == .created)
            let response = try await client.gateToken(device, counter: 1, nonce: nonce)
            #expect(response.status == .ok)
            #expect(response.json["token_type"] as? String == "DPoP")
            #expect(response.json["expires_in"] as? Int == 600)
            #expect(response.headers[.cacheControl] == "no-store")
            let token = try #require(response.json["access_token"] as? String)
            let payload = try #require(Base64URL.decode(token.split(separator: ".")[1]))
            let claims = try #require(try JSONSerialization.jsonObject(with: Data(payload)) as? [String: Any])
            #expect((claims["cnf"] as? [String: Any])?["jkt"] as? String == device.jkt)
            #expect((claims["aud"] as? [String]) == ["vettid-gate"] || claims["aud"] as? String == "vettid-gate")
            #expect(claims["sub"] as? String == "appattest:" + device.keyID)
            #expect(
                try await AttestedKeyRepository(store: app.components.store).find(keyID: device.keyID)?.counter == 1)
        }
    }

    @Test(arguments: TestEngine.available)
    func aReplayedOrLowerCounterIsRefused(engine: TestEngine) async throws {
        try await TestApp.withApp(engine, configuration: GateTest.configuration()) { client, app in
            let device = GateTest.Device()
            let nonce = try await client.gateNonce(device)
            _ = try await client.gateRegister(device, challenge: try await client.gateChallenge(), nonce: nonce)
            #expect(try await client.gateToken(device, counter: 5, nonce: nonce).status == .ok)
            let same = try await client.gateToken(device, counter: 5, nonce: nonce)
            #expect(same.status == .unauthorized)
            #expect(same.errorCode == "assertion_counter_replayed")
            let lower = try await client.gateToken(device, counter: 3, nonce: nonce)
            #expect(lower.errorCode == "assertion_counter_replayed")
            #expect(try await client.gateToken(device, counter: 6, nonce: nonce).status == .ok)

            // The compare-and-set itself: a counter that is not above the stored one does not move it.
            let keys = AttestedKeyRepository(store: app.components.store)
            #expect(try await keys.advanceCounter(keyID: device.keyID, to: 6, now: 0) == false)
            #expect(try await keys.advanceCounter(keyID: device.keyID, to: 7, now: 0) == true)
            #expect(try await keys.find(keyID: device.keyID)?.counter == 7)
        }
    }

    @Test(arguments: TestEngine.available)
    func concurrentAssertionsWithOneCounterHaveOneWinner(engine: TestEngine) async throws {
        try await TestApp.withApp(engine, configuration: GateTest.configuration()) { client, _ in
            let device = GateTest.Device()
            let nonce = try await client.gateNonce(device)
            _ = try await client.gateRegister(device, challenge: try await client.gateChallenge(), nonce: nonce)
            var challenges: [String] = []
            for _ in 0..<4 { challenges.append(try await client.gateChallenge("assert")) }
            let statuses = try await withThrowingTaskGroup(of: (Int, String?).self) { group in
                for challenge in challenges {
                    group.addTask {
                        let response = try await client.gateToken(
                            device, counter: 2, nonce: nonce, challenge: challenge)
                        return (Int(response.status.code), response.errorCode)
                    }
                }
                var all: [(Int, String?)] = []
                for try await status in group { all.append(status) }
                return all
            }
            #expect(statuses.filter { $0.0 == 200 }.count == 1)
            #expect(statuses.filter { $0.1 == "assertion_counter_replayed" }.count == 3)
        }
    }

    @Test(arguments: TestEngine.available)
    func anAssertChallengeIsSingleUse(engine: TestEngine) async throws {
        try await TestApp.withApp(engine, configuration: GateTest.configuration()) { client, _ in
            let device = GateTest.Device()
            let nonce = try await client.gateNonce(device)
            _ = try await client.gateRegister(device, challenge: try await client.gateChallenge(), nonce: nonce)
            let challenge = try await client.gateChallenge("assert")
            #expect(try await client.gateToken(device, counter: 1, nonce: nonce, challenge: challenge).status == .ok)
            let reused = try await client.gateToken(device, counter: 2, nonce: nonce, challenge: challenge)
            #expect(reused.status == .gone)
            #expect(reused.errorCode == "challenge_used")
            // The registration challenge cannot serve an assertion either.
            let attestChallenge = try await client.gateChallenge("attest")
            let wrong = try await client.gateToken(device, counter: 3, nonce: nonce, challenge: attestChallenge)
            #expect(wrong.errorCode == "challenge_wrong_purpose")
        }
    }

    @Test func anAssertionForAnotherKeyOrDeviceIsRefused() async throws {
        try await TestApp.withApp(.sqlite, configuration: GateTest.configuration()) { client, _ in
            let device = GateTest.Device()
            let nonce = try await client.gateNonce(device)
            _ = try await client.gateRegister(device, challenge: try await client.gateChallenge(), nonce: nonce)

            // Unknown key id.
            let unknown = try await client.gateToken(GateTest.Device(), counter: 1, nonce: nonce)
            #expect(unknown.errorCode == "attestation_key_unknown")

            // Another DPoP key presenting the registered key id.
            let thief = GateTest.Device()
            let stolen = try await client.gateToken(thief, counter: 1, nonce: nonce, keyID: device.keyID)
            #expect(stolen.status == .unauthorized)
            #expect(stolen.errorCode == "device_key_mismatch")

            // A forged assertion (another App Attest key's signature) under the registered key id.
            var forger = GateTest.Device()
            forger.attester = device.attester
            let challenge = try await client.gateChallenge("assert")
            let forged = try await client.post(
                "/token",
                [
                    "grant_type": "urn:vettid:params:grant-type:app-attest", "key_id": device.keyID,
                    "challenge": challenge,
                    "assertion": try forger.assertion(challenge: challenge, counter: 9),
                ],
                headers: [.dpop: try await device.proof("POST", "/token", nonce: nonce)])
            #expect(forged.status == .unauthorized)
            #expect(forged.errorCode == "assertion_invalid")
        }
    }

    @Test func theDevelopmentGrantIsOffByDefaultAndChecksTheToken() async throws {
        try await TestApp.withApp(.sqlite, configuration: GateTest.configuration()) { client, _ in
            let device = GateTest.Device()
            let nonce = try await client.gateNonce(device)
            let off = try await client.post(
                "/token",
                [
                    "grant_type": "urn:vettid:params:grant-type:development",
                    "development_token": GateTest.developmentToken,
                ],
                headers: [.dpop: try await device.proof("POST", "/token", nonce: nonce)])
            #expect(off.status == .badRequest)
            #expect(off.errorCode == "unsupported_grant_type")
        }
        let configuration = GateTest.configuration(developmentTokens: [GateTest.developmentToken])
        try await TestApp.withApp(.sqlite, configuration: configuration) { client, _ in
            let device = GateTest.Device()
            let nonce = try await client.gateNonce(device)
            let wrong = try await client.post(
                "/token",
                [
                    "grant_type": "urn:vettid:params:grant-type:development",
                    "development_token": "not-the-token-at-all",
                ],
                headers: [.dpop: try await device.proof("POST", "/token", nonce: nonce)])
            #expect(wrong.errorCode == "invalid_grant")
            let ok = try await client.post(
                "/token",
                [
                    "grant_type": "urn:vettid:params:grant-type:development",
                    "development_token": GateTest.developmentToken,
                ],
                headers: [.dpop: try await device.proof("POST", "/token", nonce: nonce)])
            #expect(ok.status == .ok)
            #expect(ok.json["token_type"] as? String == "DPoP")
        }
    }

    @Test func theTokenEndpointWantsANonceThenAcceptsIt() async throws {
        let configuration = GateTest.configuration(developmentTokens: [GateTest.developmentToken])
        try await TestApp.withApp(.sqlite, configuration: configuration) { client, _ in
            let device = GateTest.Device()
            let body: [String: Any] = [
                "grant_type": "urn:vettid:params:grant-type:development",
                "development_token": GateTest.developmentToken,
            ]
            let first = try await client.post(
                "/token", body, headers: [.dpop: try await device.proof("POST", "/token", nonce: nil)])
            #expect(first.status == .badRequest)
            #expect(first.errorCode == "use_dpop_nonce")
            let nonce = try #require(first.headers[.dpopNonce])
            let retry = try await client.post(
                "/token", body, headers: [.dpop: try await device.proof("POST", "/token", nonce: nonce)])
            #expect(retry.status == .ok)
            #expect(retry.headers[.dpopNonce] != nil)

            // No proof at all: the DPoP header is a required parameter of the operation.
            let none = try await client.post("/token", body)
            #expect(none.status == .badRequest)
            #expect(none.errorCode == "invalid_request")
        }
    }

    @Test func aReplayedProofIsRefused() async throws {
        let configuration = GateTest.configuration(developmentTokens: [GateTest.developmentToken])
        try await TestApp.withApp(.sqlite, configuration: configuration) { client, _ in
            let device = GateTest.Device()
            let nonce = try await client.gateNonce(device)
            let body: [String: Any] = [
                "grant_type": "urn:vettid:params:grant-type:development",
                "development_token": GateTest.developmentToken,
            ]
            let proof = try await device.proof("POST", "/token", nonce: nonce)
            #expect(try await client.post("/token", body, headers: [.dpop: proof]).status == .ok)
            let replay = try await client.post("/token", body, headers: [.dpop: proof])
            #expect(replay.status == .badRequest)
            #expect(replay.errorCode == "invalid_dpop_proof")
        }
    }

    @Test func gateAndMemberTokensDoNotCross() async throws {
        let configuration = GateTest.configuration(developmentTokens: [GateTest.developmentToken])
        try await TestApp.withApp(.sqlite, configuration: configuration) { client, _ in
            let device = GateTest.Device()
            let (gateToken, nonce) = try await client.gateAccessToken(device)
            // A Gate token at a member endpoint, with a valid proof by its key: refused.
            let me = try await client.get(
                "/auth/me",
                headers: [
                    .authorization: "DPoP \(gateToken)",
                    .dpop: try await device.proof("GET", "/auth/me", token: gateToken, nonce: nonce),
                ])
            #expect(me.status == .unauthorized)
            #expect(me.errorCode == "invalid_token")

            // A DPoP-bound member token at the proxy, with a valid proof by its key: refused.
            _ = try await client.post(
                "/auth/register", ["email": "gate@example.com", "password": "vivid-Otter-parsley-42"])
            let login = try await client.post(
                "/auth/login", ["email": "gate@example.com", "password": "vivid-Otter-parsley-42"],
                headers: [.dpop: try await device.proof("POST", "/auth/login", nonce: nonce)])
            #expect(login.status == .ok)
            let member = try #require(login.json["access_token"] as? String)
            let proxied = try await client.execute(
                uri: "/proxy/any/thing", method: .get,
                headers: [
                    .authorization: "DPoP \(member)",
                    .dpop: try await device.proof("GET", "/proxy/any/thing", token: member, nonce: nonce),
                ])
            #expect(proxied.status == .unauthorized)
            #expect(proxied.errorCode == "invalid_token")
            #expect(proxied.headers[.wwwAuthenticate]?.hasPrefix("DPoP") == true)
        }
    }
}
