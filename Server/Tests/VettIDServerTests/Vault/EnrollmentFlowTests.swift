// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import Foundation
import HTTPTypes
import HummingbirdTesting
import SQLKit
import Testing
import VettIDCore
import VettIDCrypto
import VettIDTestSupport

@testable import VettIDServer

/// Vault enrollment over HTTP on SQLite and PostgreSQL: the whole flow, and every refusal of issue 4's list.
@Suite struct EnrollmentFlowTests {
    @Test(arguments: TestEngine.available)
    func aDeviceEnrollsAndItsPackageIsComplete(engine: TestEngine) async throws {
        try await TestApp.withApp(engine, configuration: VaultTest.configuration()) { client, app in
            let device = GateTest.Device()
            let nonce = try await client.gateNonce(device)
            let started = try await client.enrollStart(device, code: try await client.invitationCode(), nonce: nonce)
            #expect(started.status == .created)
            #expect(started.json["token_type"] as? String == "DPoP")
            #expect(started.json["next_step"] as? String == "attestation")
            #expect(started.json["attestation_required"] as? Bool == true)
            let session = try VaultTest.Session(started.json)
            #expect(session.keys.count == 20)
            #expect(session.keys[session.passwordKeyID] != nil)

            let attested = try await client.enrollAttest(device, session: session, nonce: nonce)
            #expect(attested.status == .ok)
            #expect(attested.json["security_level"] as? String == "software")
            #expect(attested.json["next_step"] as? String == "password")
            #expect(try await client.enrollPassword(device, session: session, nonce: nonce).status == .ok)
            let finalized = try await client.enrollFinalize(device, session: session, nonce: nonce)
            #expect(finalized.status == .ok)
            #expect(finalized.json["vault_status"] as? String == "enrolled")
            let package = try VaultTest.Package(try #require(finalized.json["credential_package"] as? [String: Any]))
            #expect(package.userGUID == session.userGUID)
            #expect(package.keyVersion == 1)
            #expect(package.lat["version"] == "1")
            #expect(package.keyIDs.count == 19, "the password key is used; the other 19 travel to the device")
            #expect(!package.keyIDs.contains(session.passwordKeyID))

            // At rest: no plaintext private keys, no password hash left in the session, the credential key sealed.
            let rows = try await app.components.store.withDatabase { db in
                try await db.raw("SELECT sealed_private_key, public_key FROM transaction_keys").all()
            }
            #expect(rows.count == 20)
            let session2 = try await app.components.store.withDatabase { db in
                try await db.raw("SELECT password_hash, state FROM enrollment_sessions").first()
            }
            #expect(try session2?.decode(column: "password_hash", as: String?.self) == nil)
            #expect(try session2?.decode(column: "state", as: String.self) == "completed")
            // The LAT is reproducible by the server.
            let lat = app.components.enrollment.keyring.lat.lat(
                userGUID: package.userGUID, credentialID: package.credentialID, version: 1)
            #expect(package.lat["token"] == lat.token)
            #expect(package.lat["lat_id"] == lat.latID)
        }
    }

    @Test(arguments: TestEngine.available)
    func stepsOutOfOrderAreRefused(engine: TestEngine) async throws {
        try await TestApp.withApp(engine, configuration: VaultTest.configuration()) { client, _ in
            let device = GateTest.Device()
            let (session, nonce) = try await client.startSession(device)
            let early = try await client.enrollPassword(device, session: session, nonce: nonce)
            #expect(early.status == .conflict)
            #expect(early.errorCode == "step_out_of_order")
            let finalize = try await client.enrollFinalize(device, session: session, nonce: nonce)
            #expect(finalize.status == .conflict)
            #expect(finalize.errorCode == "step_out_of_order")
        }
    }

    @Test func anInvitationIsRedeemedOnceAndOnlyWhilePending() async throws {
        try await TestApp.withApp(.sqlite, configuration: VaultTest.configuration()) { client, app in
            let device = GateTest.Device()
            let nonce = try await client.gateNonce(device)
            let code = try await client.invitationCode()
            #expect(try await client.enrollStart(device, code: code, nonce: nonce).status == .created)
            let other = try await client.enrollStart(GateTest.Device(), code: code, nonce: nonce)
            #expect(other.status == .conflict)
            #expect(other.errorCode == "invitation_used")
            let unknown = try await client.enrollStart(device, code: "ZZZZ-ZZZZ", nonce: nonce)
            #expect(unknown.status == .notFound)
            #expect(unknown.errorCode == "invitation_not_found")
            let stale = try await client.invitationCode()
            app.clock.advance(86_401)
            var later = device
            let clock = app.clock
            later.clock = clock
            let laterNonce = try await client.gateNonce(later)
            let expired = try await client.enrollStart(later, code: stale, nonce: laterNonce)
            #expect(expired.status == .gone)
            #expect(expired.errorCode == "invitation_expired")
        }
    }

    @Test func aStartRepeatedByTheSameDeviceResumesItsSession() async throws {
        try await TestApp.withApp(.sqlite, configuration: VaultTest.configuration()) { client, _ in
            let device = GateTest.Device()
            let nonce = try await client.gateNonce(device)
            let code = try await client.invitationCode()
            let first = try VaultTest.Session(try await client.enrollStart(device, code: code, nonce: nonce).json)
            let again = try await client.enrollStart(device, code: code, nonce: nonce)
            #expect(again.status == .created)
            let resumed = try VaultTest.Session(again.json)
            #expect(resumed.id == first.id)
            #expect(Set(resumed.keys.keys) == Set(first.keys.keys))
        }
    }

    @Test func anExpiredSessionIsGone() async throws {
        try await TestApp.withApp(.sqlite, configuration: VaultTest.configuration()) { client, app in
            var device = GateTest.Device()
            let clock = app.clock
            device.clock = clock
            let session = try VaultTest.Session(
                try await client.enrollStart(
                    device, code: try await client.invitationCode(), nonce: try await client.gateNonce(device)
                ).json)
            clock.advance(30 * 60 + 1)
            let nonce = try await client.gateNonce(device)
            // The enrollment token's lifetime is the session's, so the token itself has expired too.
            let response = try await client.enrollAttest(device, session: session, nonce: nonce)
            #expect(response.status == .unauthorized || response.status == .gone)
            #expect(["invalid_token", "session_expired"].contains(response.errorCode))
        }
    }

    @Test func aSessionIsGoneWhenItsTTLPassesBeforeItsToken() async throws {
        var configuration = VaultTest.configuration()
        configuration.vault.enrollmentSessionLifetime = .seconds(60)
        try await TestApp.withApp(.sqlite, configuration: configuration) { client, app in
            let device = GateTest.Device()
            let session = try VaultTest.Session(
                try await client.enrollStart(
                    device, code: try await client.invitationCode(), nonce: try await client.gateNonce(device)
                ).json)
            // Expire the session row while the token is still valid.
            try await app.components.store.withDatabase { db in
                try await db.raw("UPDATE enrollment_sessions SET expires_at = \(bind: UnixSeconds.from(Date()) - 1)")
                    .run()
            }
            let response = try await client.enrollAttest(
                device, session: session, nonce: try await client.gateNonce(device))
            #expect(response.status == .gone)
            #expect(response.errorCode == "session_expired")
        }
    }

    @Test(arguments: TestEngine.available)
    func anotherDevicesKeyCannotContinueTheSession(engine: TestEngine) async throws {
        try await TestApp.withApp(engine, configuration: VaultTest.configuration()) { client, _ in
            let device = GateTest.Device()
            let (session, nonce) = try await client.startSession(device)
            let thief = GateTest.Device()
            let stolen = try await client.enrollAttest(thief, session: session, nonce: nonce)
            #expect(stolen.status == .unauthorized)
            #expect(stolen.errorCode == "invalid_token", "the token is bound to the first device's key")
            // Bearer presentation of the DPoP-bound token is refused as well.
            let bearer = try await client.post(
                "/vault/enroll/finalize", ["enrollment_session_id": session.id],
                headers: [
                    .authorization: "Bearer \(session.token)",
                    .dpop: try await device.proof("POST", "/vault/enroll/finalize", token: session.token, nonce: nonce),
                ])
            #expect(bearer.status == .unauthorized)
            #expect(bearer.errorCode == "invalid_token")
        }
    }

    @Test(arguments: TestEngine.available)
    func transactionKeysOpenOnceAndOnlyInTheirContext(engine: TestEngine) async throws {
        try await TestApp.withApp(engine, configuration: VaultTest.configuration()) { client, _ in
            let device = GateTest.Device()
            let (session, nonce) = try await client.startSession(device)
            #expect(try await client.enrollAttest(device, session: session, nonce: nonce).status == .ok)

            // A ciphertext made for another session (context) does not open, and burns the key it names.
            let otherKeyID = try #require(session.keys.keys.first { $0 != session.passwordKeyID })
            let moved = try VaultTest.encrypt(
                VaultTest.password, to: try #require(session.keys[otherKeyID]), purpose: .enrollmentPassword,
                contextID: "es_another_session", keyID: otherKeyID)
            let movedResponse = try await client.deviceCall(
                "/vault/enroll/password", ["enrollment_session_id": session.id, "encrypted_password": moved],
                device: device, token: session.token, nonce: nonce)
            #expect(movedResponse.status == .badRequest)
            #expect(movedResponse.errorCode == "invalid_encrypted_payload")
            let reused = try await client.enrollPassword(device, session: session, nonce: nonce, keyID: otherKeyID)
            #expect(reused.status == .conflict)
            #expect(reused.errorCode == "transaction_key_used")

            // A ciphertext sealed to one key but labelled with another key id does not open either.
            let third = try #require(session.keys.keys.first { $0 != session.passwordKeyID && $0 != otherKeyID })
            var swapped = try VaultTest.encrypt(
                VaultTest.password, to: try #require(session.keys[session.passwordKeyID]), purpose: .enrollmentPassword,
                contextID: session.id, keyID: session.passwordKeyID)
            swapped["key_id"] = third
            let swappedResponse = try await client.deviceCall(
                "/vault/enroll/password", ["enrollment_session_id": session.id, "encrypted_password": swapped],
                device: device, token: session.token, nonce: nonce)
            #expect(swappedResponse.status == .badRequest)
            #expect(swappedResponse.errorCode == "invalid_encrypted_payload")

            // A key id of no key of this session.
            var unknown = swapped
            unknown["key_id"] = "tk_unknown"
            let unknownResponse = try await client.deviceCall(
                "/vault/enroll/password", ["enrollment_session_id": session.id, "encrypted_password": unknown],
                device: device, token: session.token, nonce: nonce)
            #expect(unknownResponse.status == .badRequest)
            #expect(unknownResponse.errorCode == "transaction_key_unknown")

            // The untouched password key still works.
            #expect(try await client.enrollPassword(device, session: session, nonce: nonce).status == .ok)
        }
    }

    @Test func aWeakPasswordIsRefusedWithReasonsAndTheNextAttemptUsesAnotherKey() async throws {
        try await TestApp.withApp(.sqlite, configuration: VaultTest.configuration()) { client, _ in
            let device = GateTest.Device()
            let (session, nonce) = try await client.startSession(device)
            #expect(try await client.enrollAttest(device, session: session, nonce: nonce).status == .ok)
            let weak = try await client.enrollPassword(device, session: session, nonce: nonce, password: "password1234")
            #expect(weak.status == .badRequest)
            #expect(weak.errorCode == "weak_password")
            #expect((weak.json["reasons"] as? [String])?.isEmpty == false)
            #expect((weak.json["score"] as? Int ?? 4) < 3)
            let next = try #require(session.keys.keys.sorted().first { $0 != session.passwordKeyID })
            #expect(try await client.enrollPassword(device, session: session, nonce: nonce, keyID: next).status == .ok)
        }
    }

    @Test func aLostPasswordOrFinalizeResponseCanBeRepeated() async throws {
        try await TestApp.withApp(.sqlite, configuration: VaultTest.configuration()) { client, _ in
            let device = GateTest.Device()
            let (session, nonce) = try await client.startSession(device)
            #expect(try await client.enrollAttest(device, session: session, nonce: nonce).status == .ok)
            #expect(
                try await client.enrollAttest(device, session: session, nonce: nonce).status == .ok,
                "same attestation again")
            let keys = session.keys.keys.filter { $0 != session.passwordKeyID }.sorted()
            #expect(try await client.enrollPassword(device, session: session, nonce: nonce).status == .ok)
            #expect(
                try await client.enrollPassword(device, session: session, nonce: nonce, keyID: keys[0]).status == .ok)
            let different = try await client.enrollPassword(
                device, session: session, nonce: nonce, password: "another-Strong-pass-77", keyID: keys[1])
            #expect(different.status == .conflict, "a different password after password_set is out of order")
            let first = try await client.enrollFinalize(device, session: session, nonce: nonce)
            let second = try await client.enrollFinalize(device, session: session, nonce: nonce)
            #expect(first.status == .ok)
            #expect(second.status == .ok)
            #expect(
                try VaultTest.Package(try #require(first.json["credential_package"] as? [String: Any]))
                    == VaultTest.Package(try #require(second.json["credential_package"] as? [String: Any])))
        }
    }

    @Test func attestationIsVerifiedAgainstTheSessionChallengeAndKey() async throws {
        try await TestApp.withApp(.sqlite, configuration: VaultTest.configuration()) { client, _ in
            let device = GateTest.Device()
            let (session, nonce) = try await client.startSession(device)
            // An attestation over another challenge.
            let forged = try await client.deviceCall(
                "/vault/enroll/attestation",
                [
                    "enrollment_session_id": session.id, "format": "software", "key_id": device.keyID,
                    "attestation_object": try device.attestation(
                        challenge: Base64URL.encode([UInt8](repeating: 1, count: 32))),
                ], device: device, token: session.token, nonce: nonce)
            #expect(forged.status == .badRequest)
            #expect(forged.errorCode == "attestation_invalid_nonce")
            // A wrong development token.
            let development = try await client.deviceCall(
                "/vault/enroll/attestation",
                ["enrollment_session_id": session.id, "format": "development", "development_token": "nope"],
                device: device, token: session.token, nonce: nonce)
            #expect(development.status == .badRequest)
            #expect(development.errorCode == "attestation_invalid")
            // Claimed as Apple App Attest: the software root is not Apple's.
            let apple = try await client.deviceCall(
                "/vault/enroll/attestation",
                [
                    "enrollment_session_id": session.id, "format": "apple-appattest", "key_id": device.keyID,
                    "attestation_object": try device.attestation(challenge: session.challenge),
                ], device: device, token: session.token, nonce: nonce)
            #expect(apple.status == .badRequest)
            #expect(apple.errorCode == "attestation_untrusted_root")
        }
    }

    @Test func softwareAttestationIsRefusedWhenTheRootIsNotTrusted() async throws {
        var configuration = VaultTest.configuration()
        configuration.gate.trustSoftwareRoot = false
        try await TestApp.withApp(.sqlite, configuration: configuration) { client, _ in
            let device = GateTest.Device()
            let (session, nonce) = try await client.startSession(device)
            let response = try await client.enrollAttest(device, session: session, nonce: nonce)
            #expect(response.status == .badRequest)
            #expect(response.errorCode == "attestation_untrusted_root")
        }
    }

    @Test func withoutAnyAttestationConfiguredARequiredAttestationRefusesToStart() async throws {
        var configuration = TestApp.configuration()
        configuration.publicURL = GateTest.origin
        try await TestApp.withApp(.sqlite, configuration: configuration) { client, _ in
            let device = GateTest.Device()
            let code = try await client.invitationCode()
            let response = try await client.enrollStart(device, code: code, nonce: try await client.gateNonce(device))
            #expect(response.status == .serviceUnavailable)
            #expect(response.errorCode == "attestation_not_configured")
        }
    }

    @Test(arguments: TestEngine.available)
    func concurrentClaimsOfOneKeyOpenItOnce(engine: TestEngine) async throws {
        try await withTestStore(engine) { store in
            let repository = TransactionKeyRepository(
                sealer: SecretSealer(
                    keys: SealingKeys(ring: .original, keys: .ephemeral()), purpose: "transaction-key-at-rest"))
            let member = try #require(
                try await MemberRepository(store: store).create(
                    email: "claims@example.com", passwordHash: "x", now: Date()))
            let keys = try await store.transaction { db in
                try await repository.issue(1, userID: member.id, owner: .session("es_1"), now: 1, on: db)
            }
            let outcomes = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<16 {
                    group.addTask {
                        let claim = try await store.withDatabase { db in
                            try await repository.claim(keys[0].keyID, owner: .session("es_1"), now: 2, on: db)
                        }
                        if case .claimed = claim { return true }
                        return false
                    }
                }
                return try await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 }.count == 1)
            // Another owner cannot claim it at all.
            let foreign = try await store.withDatabase { db in
                try await repository.claim(keys[0].keyID, owner: .session("es_2"), now: 3, on: db)
            }
            guard case .unknown = foreign else { Issue.record("a key of another session was claimable"); return }
        }
    }
}
