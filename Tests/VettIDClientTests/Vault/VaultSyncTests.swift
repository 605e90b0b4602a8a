// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes
import Testing
import VettIDCrypto

@testable import VettIDClient

@Suite("Vault sync (SDK)", .timeLimit(.minutes(1)))
struct VaultSyncTests {
    func syncJSON(status: String, keys: [TransactionKey], remaining: Int) -> String {
        let items = keys.map { #"{"key_id":"\#($0.keyID)","public_key":"\#($0.publicKey)","algorithm":"X25519"}"# }
        return """
            {"status":"\(status)","last_sync_at":"2030-01-03T00:00:00Z","transaction_keys_remaining":\(remaining),\
            "new_transaction_keys":[\(items.joined(separator: ","))],"credential_version":2}
            """
    }

    @Test(
        "keys_replenished: the new keys are appended to the stored package; the request is session-bound with the credential id"
    )
    func replenishes() async throws {
        let fixture = try ScriptedVaultFixture()
        let held = (1...9).map { freshTransactionKey("tk-\($0)") }
        try await fixture.signIn(keys: held)
        let fresh = (10...20).map { freshTransactionKey("tk-\($0)") }
        await fixture.answers.add("/vault/sync", .ok, syncJSON(status: "keys_replenished", keys: fresh, remaining: 20))

        let result = try await fixture.service.syncVault()
        #expect(result.status == .keysReplenished)
        #expect(result.newTransactionKeys == fresh)
        #expect(result.transactionKeysRemaining == 20)
        #expect(result.credentialVersion == 2)
        #expect(result.storedTransactionKeys == 20)
        #expect(result.lastSyncAt == Date(timeIntervalSince1970: 1_893_456_000 + 2 * 86_400))

        let stored = try #require(try await fixture.service.storedCredential())
        #expect(stored.package.transactionKeys.map(\.keyID) == (1...20).map { "tk-\($0)" })
        let request = try #require(await fixture.requests("/vault/sync").first)
        #expect(request.method == .post)
        try fixture.expectSessionBound(request, token: "session-1", method: "POST", path: "/vault/sync")
        let body = try #require(try JSONSerialization.jsonObject(with: request.body) as? [String: Any])
        #expect(body["credential_id"] as? String == "cred-1")
    }

    @Test("synced: nothing new, the stored package is not rewritten")
    func syncedWithoutKeys() async throws {
        let fixture = try ScriptedVaultFixture()
        let held = (1...12).map { freshTransactionKey("tk-\($0)") }
        try await fixture.signIn(keys: held)
        let before = try #require(try await fixture.service.storedCredential())
        await fixture.answers.add("/vault/sync", .ok, syncJSON(status: "synced", keys: [], remaining: 12))
        let result = try await fixture.service.syncVault()
        #expect(result.status == .synced)
        #expect(result.newTransactionKeys.isEmpty)
        #expect(result.storedTransactionKeys == 12)
        #expect(try await fixture.service.storedCredential() == before)
    }

    @Test("a key the package already holds is not added twice")
    func noDuplicates() async throws {
        let fixture = try ScriptedVaultFixture()
        let held = [freshTransactionKey("tk-1"), freshTransactionKey("tk-2")]
        try await fixture.signIn(keys: held)
        let fresh = freshTransactionKey("tk-3")
        await fixture.answers.add(
            "/vault/sync", .ok, syncJSON(status: "keys_replenished", keys: [held[1], fresh, fresh], remaining: 3))
        let result = try await fixture.service.syncVault()
        #expect(result.storedTransactionKeys == 3)
        #expect(
            try await fixture.service.storedCredential()?.package.transactionKeys.map(\.keyID) == [
                "tk-1", "tk-2", "tk-3",
            ])
    }

    @Test("a key that is not X25519 fails the sync and stores nothing")
    func invalidKey() async throws {
        let fixture = try ScriptedVaultFixture()
        try await fixture.signIn(keys: [freshTransactionKey("tk-1")])
        let before = try await fixture.service.storedCredential()
        await fixture.answers.add(
            "/vault/sync", .ok,
            syncJSON(status: "keys_replenished", keys: [TransactionKey(keyID: "bad", publicKey: "AAAA")], remaining: 2))
        let error = await captureError { _ = try await fixture.service.syncVault() }
        #expect(error?.code == .invalidResponse)
        #expect(try await fixture.service.storedCredential() == before)
    }

    @Test("no stored credential: not_enrolled before any request; 409 not_enrolled from the server surfaces")
    func notEnrolled() async throws {
        let fixture = try ScriptedVaultFixture()
        let local = await captureError { _ = try await fixture.service.syncVault() }
        #expect(local?.code == .notEnrolled)
        #expect(await fixture.transport.log.requests.isEmpty)

        try await fixture.signIn()
        await fixture.answers.add(
            "/vault/sync", .conflict, #"{"error":"not_enrolled","error_description":"no credential"}"#)
        let remote = await captureError { _ = try await fixture.service.syncVault() }
        #expect(remote?.code == .notEnrolled)
        #expect(remote?.status == 409)
    }

    @Test("a 401 re-authenticates once, then the sync stores the keys")
    func reauthenticatesOnce() async throws {
        let fixture = try ScriptedVaultFixture()
        try await fixture.signIn(keys: [freshTransactionKey("tk-1")])
        await fixture.answers.reject(token: "session-1")
        await fixture.answers.add(
            "/vault/sync", .ok, syncJSON(status: "keys_replenished", keys: [freshTransactionKey("tk-2")], remaining: 2))
        let result = try await fixture.service.syncVault()
        #expect(result.storedTransactionKeys == 2)
        #expect(await fixture.reauthentications.calls == 1)
        let requests = await fixture.requests("/vault/sync")
        #expect(requests.map { $0.headers[.authorization] } == ["DPoP session-1", "DPoP session-2"])
    }

    @Test("concurrent appends and consumptions lose and duplicate nothing")
    func concurrentAppends() async throws {
        let store = CredentialStore(store: InMemorySecureStore())
        let initial = (0..<10).map { freshTransactionKey("old-\($0)") }
        try await store.save(
            VaultCredential(package: sampleStatusPackage(keys: initial), attestationFormat: .development))
        let batches = (0..<8).map { batch in (0..<5).map { freshTransactionKey("new-\(batch)-\($0)") } }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for batch in batches {
                // Each batch is delivered twice (two syncs racing), plus a consumption of an old key.
                group.addTask { try await store.appendTransactionKeys(batch, credentialID: "cred-1") }
                group.addTask { try await store.appendTransactionKeys(batch, credentialID: "cred-1") }
            }
            for index in 0..<5 {
                group.addTask { _ = try await store.consumeTransactionKey(id: "old-\(index)") }
            }
            try await group.waitForAll()
        }
        let ids = try #require(try await store.load()).package.transactionKeys.map(\.keyID)
        #expect(ids.count == 5 + 40)
        #expect(Set(ids).count == ids.count)
        #expect(Set(ids) == Set((5..<10).map { "old-\($0)" } + batches.flatMap { $0.map(\.keyID) }))
    }

    @Test("keys for another credential are refused")
    func otherCredential() async throws {
        let store = CredentialStore(store: InMemorySecureStore())
        try await store.save(VaultCredential(package: sampleStatusPackage(), attestationFormat: nil))
        let error = await captureError {
            try await store.appendTransactionKeys([freshTransactionKey("x")], credentialID: "cred-other")
        }
        #expect(error?.code == .invalidResponse)
        #expect(try await store.load()?.package.transactionKeys.isEmpty == true)
    }
}
