// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes
import HummingbirdTesting
import SQLKit
import Testing
import VettIDCore
import VettIDCrypto
import VettIDTestSupport

@testable import VettIDServer

/// Vault authentication over HTTP on SQLite and PostgreSQL: action request + auth execute, rotation, lockout,
/// and every refusal of issue 4's list.
@Suite struct VaultAuthTests {
    @Test(arguments: TestEngine.available)
    func anEnrolledDeviceAuthenticatesAndEverythingRotates(engine: TestEngine) async throws {
        try await TestApp.withApp(engine, configuration: VaultTest.configuration()) { client, app in
            let device = GateTest.Device()
            let (package, nonce) = try await client.enroll(device)
            let action = try await client.actionRequest(device, package: package, nonce: nonce, counter: 1)
            #expect(action.status == .ok)
            #expect(action.json["token_type"] as? String == "DPoP")
            let lat = try #require(action.json["ledger_auth_token"] as? [String: Any])
            #expect(lat["token"] as? String == package.lat["token"], "the device compares this with its stored LAT")
            #expect(lat["lat_id"] as? String == package.lat["lat_id"])
            let useKey = try #require(action.json["use_key_id"] as? String)
            #expect(package.keyIDs.contains(useKey))

            let executed = try await client.authExecute(device, package: package, action: action.json, nonce: nonce)
            #expect(executed.status == .ok)
            #expect(executed.json["status"] as? String == "authenticated")
            #expect(executed.json["token_type"] as? String == "DPoP")
            #expect(executed.json["session_token"] is String)
            let next = try VaultTest.Package(try #require(executed.json["credential_package"] as? [String: Any]))
            #expect(next.credentialID == package.credentialID)
            #expect(next.keyVersion == 2)
            #expect(next.lat["version"] == "2")
            #expect(next.lat["token"] != package.lat["token"])
            #expect(next.sealedCredential != package.sealedCredential)
            #expect(!next.keyIDs.contains(useKey))
            #expect(next.keyIDs.count == 18)

            // The session token is a vault session token bound to the device key.
            let session = await app.components.vaultTokens.verify(
                try #require(executed.json["session_token"] as? String), as: .session, now: app.components.clock.now())
            #expect(session?.boundJKT == device.jkt)
            #expect(session?.contextID == package.credentialID)

            // The old blob is stale now; the new one authenticates (with a higher assertion counter).
            let second = try await client.actionRequest(device, package: next, nonce: nonce, counter: 2)
            let stale = try await client.authExecute(device, package: package, action: second.json, nonce: nonce)
            #expect(stale.status == .conflict)
            #expect(stale.errorCode == "stale_credential")
            let third = try await client.actionRequest(device, package: next, nonce: nonce, counter: 3)
            #expect(try await client.authExecute(device, package: next, action: third.json, nonce: nonce).status == .ok)
        }
    }

    @Test(arguments: TestEngine.available)
    func threeWrongPasswordsLockTheCredential(engine: TestEngine) async throws {
        try await TestApp.withApp(engine, configuration: VaultTest.configuration()) { client, _ in
            let device = GateTest.Device()
            let (package, nonce) = try await client.enroll(device)
            for attempt in 1...3 {
                let action = try await client.actionRequest(
                    device, package: package, nonce: nonce, counter: UInt32(attempt))
                #expect(action.status == .ok)
                let wrong = try await client.authExecute(
                    device, package: package, action: action.json, nonce: nonce, password: "wrong-Password-\(attempt)")
                if attempt < 3 {
                    #expect(wrong.status == .unauthorized)
                    #expect(wrong.errorCode == "invalid_credentials")
                } else {
                    #expect(wrong.status.code == 423)
                    #expect(wrong.errorCode == "credential_locked")
                }
            }
            let locked = try await client.actionRequest(device, package: package, nonce: nonce, counter: 4)
            #expect(locked.status.code == 423)
            #expect(locked.errorCode == "credential_locked")
        }
    }

    @Test func aSuccessResetsTheFailureCount() async throws {
        try await TestApp.withApp(.sqlite, configuration: VaultTest.configuration()) { client, _ in
            let device = GateTest.Device()
            var (package, nonce) = try await client.enroll(device)
            var counter: UInt32 = 0
            for round in 0..<2 {
                for _ in 0..<2 {
                    counter += 1
                    let action = try await client.actionRequest(
                        device, package: package, nonce: nonce, counter: counter)
                    let wrong = try await client.authExecute(
                        device, package: package, action: action.json, nonce: nonce,
                        password: "not-the-Password-\(round)")
                    #expect(wrong.errorCode == "invalid_credentials")
                }
                counter += 1
                let action = try await client.actionRequest(device, package: package, nonce: nonce, counter: counter)
                let right = try await client.authExecute(device, package: package, action: action.json, nonce: nonce)
                #expect(right.status == .ok, "two failures then a success never lock")
                package = try VaultTest.Package(try #require(right.json["credential_package"] as? [String: Any]))
            }
            _ = nonce
        }
    }

    @Test(arguments: TestEngine.available)
    func anActionAndItsKeyAreSingleUse(engine: TestEngine) async throws {
        try await TestApp.withApp(engine, configuration: VaultTest.configuration()) { client, _ in
            let device = GateTest.Device()
            let (package, nonce) = try await client.enroll(device)
            let action = try await client.actionRequest(device, package: package, nonce: nonce, counter: 1)
            let first = try await client.authExecute(device, package: package, action: action.json, nonce: nonce)
            #expect(first.status == .ok)
            // A repeat by the same device (a reply lost in transit) gets the same package, not a second rotation.
            let repeated = try await client.authExecute(device, package: package, action: action.json, nonce: nonce)
            #expect(repeated.status == .ok)
            let issued = try VaultTest.Package(try #require(first.json["credential_package"] as? [String: Any]))
            #expect(
                try VaultTest.Package(try #require(repeated.json["credential_package"] as? [String: Any])) == issued)
            // Once the credential moved on, the old action is only a replay.
            let next = try await client.actionRequest(device, package: issued, nonce: nonce, counter: 2)
            #expect(
                try await client.authExecute(device, package: issued, action: next.json, nonce: nonce).status == .ok)
            let replay = try await client.authExecute(device, package: package, action: action.json, nonce: nonce)
            #expect(replay.status == .conflict)
            #expect(replay.errorCode == "action_replayed")
            // A failed execute leaves nothing to repeat.
            let third = try await client.actionRequest(device, package: issued, nonce: nonce, counter: 3)
            _ = try await client.authExecute(
                device, package: issued, action: third.json, nonce: nonce, password: "wrong-Password-1")
            let again = try await client.authExecute(device, package: issued, action: third.json, nonce: nonce)
            #expect(again.errorCode == "action_replayed")
        }
    }

    @Test func anExpiredActionIsGone() async throws {
        try await TestApp.withApp(.sqlite, configuration: VaultTest.configuration()) { client, app in
            let device = GateTest.Device()
            let (package, nonce) = try await client.enroll(device)
            let action = try await client.actionRequest(device, package: package, nonce: nonce, counter: 1)
            try await app.components.store.withDatabase { db in
                try await db.raw("UPDATE vault_actions SET expires_at = \(bind: UnixSeconds.from(Date()) - 1)").run()
            }
            let late = try await client.authExecute(device, package: package, action: action.json, nonce: nonce)
            #expect(late.status == .gone)
            #expect(late.errorCode == "session_expired")
        }
    }

    @Test(arguments: TestEngine.available)
    func anotherDevicesKeyCannotAuthenticate(engine: TestEngine) async throws {
        try await TestApp.withApp(engine, configuration: VaultTest.configuration()) { client, _ in
            let device = GateTest.Device()
            let (package, nonce) = try await client.enroll(device)
            // A thief with the package (blob, ids) but not the device key.
            let thief = GateTest.Device()
            let stolen = try await client.actionRequest(thief, package: package, nonce: nonce, counter: nil)
            #expect(stolen.status == .unauthorized)
            #expect(stolen.errorCode == "invalid_dpop_proof")
            // The device's action token presented by another key.
            let action = try await client.actionRequest(device, package: package, nonce: nonce, counter: 1)
            let hijacked = try await client.authExecute(thief, package: package, action: action.json, nonce: nonce)
            #expect(hijacked.status == .unauthorized)
            #expect(hijacked.errorCode == "invalid_token")
        }
    }

    @Test func assertionsMustBeFreshBoundAndIncreasing() async throws {
        try await TestApp.withApp(.sqlite, configuration: VaultTest.configuration()) { client, _ in
            let device = GateTest.Device()
            let (package, nonce) = try await client.enroll(device)
            let missing = try await client.actionRequest(device, package: package, nonce: nonce, counter: nil)
            #expect(missing.status == .unauthorized)
            #expect(missing.errorCode == "assertion_invalid", "an App Attest-format credential needs an assertion")
            #expect(try await client.actionRequest(device, package: package, nonce: nonce, counter: 5).status == .ok)
            let replayed = try await client.actionRequest(device, package: package, nonce: nonce, counter: 5)
            #expect(replayed.status == .unauthorized)
            #expect(replayed.errorCode == "assertion_counter_replayed")
            let otherCredential = try await client.actionRequest(
                device, package: package, nonce: nonce, counter: 6,
                clientData: [
                    "action": "authenticate", "credential_id": "cr_other", "iat": Int(Date().timeIntervalSince1970),
                    "nonce": Base64URL.encode([UInt8](repeating: 3, count: 16)),
                ])
            #expect(otherCredential.errorCode == "assertion_invalid")
            let stale = try await client.actionRequest(
                device, package: package, nonce: nonce, counter: 7,
                clientData: [
                    "action": "authenticate", "credential_id": package.credentialID,
                    "iat": Int(Date().timeIntervalSince1970) - 3_600,
                    "nonce": Base64URL.encode([UInt8](repeating: 3, count: 16)),
                ])
            #expect(stale.errorCode == "assertion_invalid")
        }
    }

    @Test func aTamperedBlobOrAWrongKeyIsRefused() async throws {
        try await TestApp.withApp(.sqlite, configuration: VaultTest.configuration()) { client, _ in
            let device = GateTest.Device()
            let (package, nonce) = try await client.enroll(device)
            var blob = try #require(Base64URL.decode(package.sealedCredential))
            blob[blob.count / 2] ^= 0x01
            let action = try await client.actionRequest(device, package: package, nonce: nonce, counter: 1)
            let tampered = try await client.authExecute(
                device, package: package, action: action.json, nonce: nonce, sealedCredential: Base64URL.encode(blob))
            #expect(tampered.status == .badRequest)
            #expect(tampered.errorCode == "invalid_credential")

            // A password encrypted to a key other than the action's.
            let second = try await client.actionRequest(device, package: package, nonce: nonce, counter: 2)
            var other = second.json
            let spare = try #require(package.keyIDs.first { $0 != second.json["use_key_id"] as? String })
            var key = try #require(other["transaction_key"] as? [String: Any])
            key["key_id"] = spare
            other["transaction_key"] = key
            let wrongKey = try await client.authExecute(device, package: package, action: other, nonce: nonce)
            #expect(wrongKey.status == .badRequest)
            #expect(wrongKey.errorCode == "transaction_key_unknown")
        }
    }

    @Test func aHalfFinishedEnrollmentCannotAuthenticate() async throws {
        try await TestApp.withApp(.sqlite, configuration: VaultTest.configuration()) { client, _ in
            let device = GateTest.Device()
            let (session, nonce) = try await client.startSession(device)
            #expect(try await client.enrollAttest(device, session: session, nonce: nonce).status == .ok)
            #expect(try await client.enrollPassword(device, session: session, nonce: nonce).status == .ok)
            // No finalize: there is no credential, whatever id the device tries.
            let response = try await client.post(
                "/vault/action/request",
                ["user_guid": session.userGUID, "credential_id": session.id, "action": "authenticate"],
                headers: [.dpop: try await device.proof("POST", "/vault/action/request", nonce: nonce)])
            #expect(response.status == .notFound)
        }
    }

    @Test func reEnrollingRetiresTheOldCredential() async throws {
        try await TestApp.withApp(.sqlite, configuration: VaultTest.configuration()) { client, _ in
            let email = "reenroll@example.com"
            let tokens = try await client.registerAndLogin(email: email)
            let bearer: HTTPFields = [.authorization: "Bearer \(try #require(tokens["access_token"] as? String))"]
            func code() async throws -> String {
                try #require(try await client.post("/vault/invitations", [:], headers: bearer).json["code"] as? String)
            }
            let old = GateTest.Device()
            let (oldPackage, nonce) = try await client.enroll(old, code: try await code())
            let new = GateTest.Device()
            _ = try await client.enroll(new, code: try await code())
            let retired = try await client.actionRequest(old, package: oldPackage, nonce: nonce, counter: 1)
            #expect(retired.status == .notFound, "a vault has one enrolled device; the old credential is retired")
        }
    }

    @Test func aDPoPProofCannotBeReplayed() async throws {
        try await TestApp.withApp(.sqlite, configuration: VaultTest.configuration()) { client, _ in
            let device = GateTest.Device()
            let (package, nonce) = try await client.enroll(device)
            let proof = try await device.proof("POST", "/vault/action/request", nonce: nonce)
            let body: [String: Any] = [
                "user_guid": package.userGUID, "credential_id": package.credentialID, "action": "authenticate",
            ]
            _ = try await client.post("/vault/action/request", body, headers: [.dpop: proof])
            let replay = try await client.post("/vault/action/request", body, headers: [.dpop: proof])
            #expect(replay.status == .badRequest)
            #expect(replay.errorCode == "invalid_dpop_proof")
        }
    }

    @Test func actionRequestsPerCredentialAndEnrollmentStartsPerIPAreRateLimited() async throws {
        var configuration = VaultTest.configuration()
        configuration.vault.actionsPerCredential = .init(capacity: 2, window: .seconds(60))
        configuration.vault.enrollmentStartsPerIP = .init(capacity: 2, window: .seconds(60))
        try await TestApp.withApp(.sqlite, setup: .live, configuration: configuration) { client, _ in
            let device = GateTest.Device()
            let (package, nonce) = try await client.enroll(device)
            var statuses: [Int] = []
            for counter in 1...3 {
                statuses.append(
                    try await client.actionRequest(device, package: package, nonce: nonce, counter: UInt32(counter))
                        .status.code)
            }
            #expect(statuses == [200, 200, 429])
            // enroll() used one start; one more is allowed, the third is limited.
            let second = try await client.enrollStart(
                GateTest.Device(), code: try await client.invitationCode(), nonce: nonce)
            #expect(second.status == .created)
            let third = try await client.enrollStart(
                GateTest.Device(), code: try await client.invitationCode(), nonce: nonce)
            #expect(third.status == .tooManyRequests)
            #expect(third.errorCode == "rate_limited")
            #expect(third.headers[.retryAfter] != nil)
        }
    }
}
