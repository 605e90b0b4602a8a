// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes
import HummingbirdTesting
import SQLKit
import Testing
import VettIDCrypto
import VettIDTestSupport

@testable import VettIDServer

/// Vault status, sync and deploy over HTTP on SQLite and PostgreSQL.
@Suite struct VaultLifecycleTests {
    @Test(arguments: TestEngine.available)
    func statusFollowsEnrollmentAndDeployment(engine: TestEngine) async throws {
        try await TestApp.withApp(engine, configuration: VaultTest.configuration()) { client, _ in
            let tokens = try await client.registerAndLogin(email: "lifecycle@example.com")
            let bearer: HTTPFields = [.authorization: "Bearer \(try #require(tokens["access_token"] as? String))"]
            #expect(try await client.get("/vault/status", headers: bearer).json["status"] as? String == "not_enrolled")
            let notYet = try await client.post("/member/vault/deploy", [:], headers: bearer)
            #expect(notYet.status == .conflict)
            #expect(notYet.errorCode == "not_enrolled")

            let code = try #require(
                try await client.post("/vault/invitations", [:], headers: bearer).json["code"] as? String)
            let device = GateTest.Device()
            let nonce = try await client.gateNonce(device)
            let session = try VaultTest.Session(try await client.enrollStart(device, code: code, nonce: nonce).json)
            #expect(try await client.get("/vault/status", headers: bearer).json["status"] as? String == "pending")
            #expect(try await client.enrollAttest(device, session: session, nonce: nonce).status == .ok)
            #expect(try await client.enrollPassword(device, session: session, nonce: nonce).status == .ok)
            let finalized = try await client.enrollFinalize(device, session: session, nonce: nonce)
            #expect(finalized.status == .ok)
            // The vault identity keys to pin come with the credential, and from GET /vault/session-keys.
            let pinned = try #require(finalized.json["vault_session_keys"] as? [String: Any])
            #expect(pinned["current_kid"] as? String == "vault-session-1")
            let pinnedKeys = try #require(pinned["keys"] as? [[String: Any]])
            #expect(pinnedKeys.count == 1)
            #expect(pinnedKeys.first?["kid"] as? String == "vault-session-1")
            #expect(pinnedKeys.first?["kty"] as? String == "EC" && pinnedKeys.first?["alg"] as? String == "ES256")
            #expect(
                (pinnedKeys.first?["x"] as? String)?.count == 43 && (pinnedKeys.first?["y"] as? String)?.count == 43)
            let fetched = try await client.get("/vault/session-keys", headers: bearer)
            #expect(fetched.status == .ok)
            #expect(
                (fetched.json["keys"] as? [[String: Any]])?.first?["x"] as? String == pinnedKeys.first?["x"] as? String)
            #expect(try await client.get("/vault/session-keys").status == .unauthorized)

            let enrolled = try await client.get("/vault/status", headers: bearer)
            #expect(enrolled.json["status"] as? String == "enrolled")
            #expect(enrolled.json["user_guid"] as? String == session.userGUID)
            #expect(enrolled.json["device_type"] as? String == "ios")
            #expect(enrolled.json["security_level"] as? String == "software")
            #expect(enrolled.json["transaction_keys_remaining"] as? Int == 19)
            #expect(enrolled.json["credential_version"] as? Int == 1)
            #expect(enrolled.json["enrolled_at"] is String)
            #expect(enrolled.json["last_auth_at"] == nil)

            let deployed = try await client.post("/member/vault/deploy", [:], headers: bearer)
            #expect(deployed.status == .ok)
            #expect(deployed.json["status"] as? String == "active")
            // Named as in the NATS account answer (`NatsAccount`).
            #expect(deployed.json["owner_space_id"] as? String == "OwnerSpace.\(session.userGUID)")
            #expect(deployed.json["message_space_id"] as? String == "MessageSpace.\(session.userGUID)")
            #expect(deployed.json["owner_space"] == nil && deployed.json["message_space"] == nil)
            let again = try await client.post("/member/vault/deploy", [:], headers: bearer)
            #expect(
                again.json["deployed_at"] as? String == deployed.json["deployed_at"] as? String, "deploy is idempotent")
            #expect(try await client.get("/vault/status", headers: bearer).json["status"] as? String == "active")
        }
    }

    @Test(arguments: TestEngine.available)
    func aVaultSessionReadsStatusAndSyncReplenishes(engine: TestEngine) async throws {
        try await TestApp.withApp(engine, configuration: VaultTest.configuration()) { client, app in
            let device = GateTest.Device()
            let (package, nonce) = try await client.enroll(device)
            let action = try await client.actionRequest(device, package: package, nonce: nonce, counter: 1)
            let executed = try await client.authExecute(device, package: package, action: action.json, nonce: nonce)
            let sessionToken = try #require(executed.json["session_token"] as? String)
            func call(_ method: HTTPRequest.Method, _ path: String, by signer: GateTest.Device = device) async throws
                -> TestResponse
            {
                try await client.execute(
                    uri: path, method: method,
                    headers: [
                        .authorization: "DPoP \(sessionToken)",
                        .dpop: try await signer.proof(method.rawValue, path, token: sessionToken, nonce: nonce),
                    ])
            }
            let status = try await call(.get, "/vault/status")
            #expect(status.status == .ok)
            #expect(status.json["status"] as? String == "enrolled")
            #expect(status.json["credential_version"] as? Int == 2)
            #expect(status.json["last_auth_at"] is String)
            #expect(status.json["transaction_keys_remaining"] as? Int == 18)

            let synced = try await call(.post, "/vault/sync")
            #expect(synced.status == .ok)
            #expect(synced.json["status"] as? String == "synced", "18 unused keys are above the threshold of 10")
            #expect((synced.json["new_transaction_keys"] as? [Any])?.isEmpty == true)

            // Use up keys until 5 remain: the next sync tops the pool up to 20.
            try await app.components.store.withDatabase { db in
                let rows = try await db.raw(
                    "SELECT key_id FROM transaction_keys WHERE credential_id = \(bind: package.credentialID) AND used_at IS NULL AND reserved_by IS NULL ORDER BY key_id"
                ).all()
                for row in rows.dropFirst(5) {
                    try await db.raw(
                        "UPDATE transaction_keys SET used_at = 1 WHERE key_id = \(bind: try row.decode(column: "key_id", as: String.self))"
                    ).run()
                }
            }
            let replenished = try await call(.post, "/vault/sync")
            #expect(replenished.json["status"] as? String == "keys_replenished")
            #expect((replenished.json["new_transaction_keys"] as? [Any])?.count == 15)
            #expect(replenished.json["transaction_keys_remaining"] as? Int == 20)
            #expect(replenished.json["last_sync_at"] is String)
            #expect(try await call(.get, "/vault/status").json["last_sync_at"] is String)

            // The session token is bound to the device key.
            let stolen = try await call(.get, "/vault/status", by: GateTest.Device())
            #expect(stolen.status == .unauthorized)
            #expect(stolen.errorCode == "invalid_token")
        }
    }

    @Test(arguments: TestEngine.available)
    func concurrentSyncsNeitherDuplicateNorLoseKeys(engine: TestEngine) async throws {
        try await TestApp.withApp(engine, configuration: VaultTest.configuration()) { client, app in
            let device = GateTest.Device()
            let (package, _) = try await client.enroll(device)
            let store = app.components.store
            try await store.withDatabase { db in
                let rows = try await db.raw(
                    "SELECT key_id FROM transaction_keys WHERE credential_id = \(bind: package.credentialID) AND used_at IS NULL ORDER BY key_id"
                ).all()
                for row in rows.dropFirst(3) {
                    try await db.raw(
                        "UPDATE transaction_keys SET used_at = 1 WHERE key_id = \(bind: try row.decode(column: "key_id", as: String.self))"
                    ).run()
                }
            }
            let userID = try #require(UUID(uuidString: package.userGUID))
            let lifecycle = app.components.vaultLifecycle
            let added = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        try await lifecycle.sync(userID: userID, credentialID: package.credentialID).newKeys.count
                    }
                }
                return try await group.reduce(0, +)
            }
            #expect(added == 17, "exactly one sync refilled from 3 to 20")
            let unused = try await store.withDatabase { db in
                try await db.raw(
                    "SELECT COUNT(*) AS n FROM transaction_keys WHERE credential_id = \(bind: package.credentialID) AND used_at IS NULL"
                ).first()?.decode(column: "n", as: Int.self)
            }
            #expect(unused == 20)
        }
    }

    @Test func aRetiredCredentialsSessionIsRefused() async throws {
        try await TestApp.withApp(.sqlite, configuration: VaultTest.configuration()) { client, app in
            let device = GateTest.Device()
            let (package, nonce) = try await client.enroll(device)
            let action = try await client.actionRequest(device, package: package, nonce: nonce, counter: 1)
            let executed = try await client.authExecute(device, package: package, action: action.json, nonce: nonce)
            let sessionToken = try #require(executed.json["session_token"] as? String)
            try await app.components.store.withDatabase { db in
                try await db.raw("UPDATE vault_credentials SET revoked_at = 1").run()
            }
            let response = try await client.execute(
                uri: "/vault/sync", method: .post,
                headers: [
                    .authorization: "DPoP \(sessionToken)",
                    .dpop: try await device.proof("POST", "/vault/sync", token: sessionToken, nonce: nonce),
                ])
            #expect(response.status == .conflict)
            #expect(response.errorCode == "not_enrolled")
        }
    }
}
