// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing
import VettIDCore

@testable import VettIDClient

/// A store whose writes can be made to fail.
actor FlakySecureStore: SecureStore {
    private var items: [String: Data] = [:]
    var failWrites = false
    private(set) var writes = 0

    func setFailWrites(_ value: Bool) { failWrites = value }

    func data(forKey key: String) async throws -> Data? { items[key] }

    func setValues(_ values: [String: Data?]) async throws {
        if failWrites { throw FakeNetworkError() }
        writes += 1
        for (key, value) in values { items[key] = value }
    }
}

@Suite("CredentialStore")
struct CredentialStoreTests {
    static func package(keys: Int = 3, user: String = "user-1", version: Int = 1) -> CredentialPackage {
        CredentialPackage(
            userGUID: user,
            credentialID: "cred-1",
            sealedCredential: "c2VhbGVk",
            keyVersion: version,
            ledgerAuthToken: LedgerAuthToken(latID: "lat-1", token: "dG9rZW4", version: version),
            transactionKeys: (1...max(keys, 1)).prefix(keys).map {
                TransactionKey(keyID: "tk-\($0)", publicKey: TransactionKeyTestKeys.publicKey)
            }
        )
    }

    @Test("saves and loads the whole credential as one item")
    func roundTrip() async throws {
        let store = FlakySecureStore()
        let credentials = CredentialStore(store: store)
        #expect(try await credentials.load() == nil)
        let credential = VaultCredential(
            package: Self.package(), attestationFormat: .software, updatedAt: Date(timeIntervalSince1970: 1_800_000_000)
        )
        try await credentials.save(credential)
        #expect(await store.writes == 1)
        #expect(try await credentials.load() == credential)
        let raw = try #require(try await store.data(forKey: "vettid.vault.credential"))
        let object = try #require(try JSONSerialization.jsonObject(with: raw) as? [String: Any])
        let package = try #require(object["package"] as? [String: Any])
        #expect(package["user_guid"] as? String == "user-1")
        #expect((package["ledger_auth_token"] as? [String: Any])?["lat_id"] as? String == "lat-1")
        #expect(object["attestation_format"] as? String == "software")
    }

    @Test("consumes a transaction key exactly once")
    func consumesOnce() async throws {
        let credentials = CredentialStore(store: InMemorySecureStore())
        try await credentials.save(VaultCredential(package: Self.package(), attestationFormat: nil))
        let key = try await credentials.consumeTransactionKey(id: "tk-2")
        #expect(key.keyID == "tk-2")
        #expect(try await credentials.require().package.transactionKeys.map(\.keyID) == ["tk-1", "tk-3"])
        let again = await captureError { _ = try await credentials.consumeTransactionKey(id: "tk-2") }
        #expect(again?.code == .noTransactionKey)
    }

    @Test("concurrent consumptions of different keys all land (serialised read-modify-write)")
    func concurrentConsumptions() async throws {
        let credentials = CredentialStore(store: InMemorySecureStore())
        try await credentials.save(VaultCredential(package: Self.package(keys: 20), attestationFormat: nil))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 1...20 {
                group.addTask { _ = try await credentials.consumeTransactionKey(id: "tk-\(index)") }
            }
            try await group.waitForAll()
        }
        #expect(try await credentials.require().package.transactionKeys.isEmpty)
    }

    @Test("replacePackage swaps the package in one write and keeps the format; another member's package is refused")
    func replacesAtomically() async throws {
        let store = FlakySecureStore()
        let credentials = CredentialStore(store: store)
        let original = VaultCredential(package: Self.package(), attestationFormat: .appleAppAttest)
        try await credentials.save(original)
        let next = Self.package(keys: 2, version: 2)
        let replaced = try await credentials.replacePackage(next)
        #expect(replaced.package == next)
        #expect(replaced.attestationFormat == .appleAppAttest)
        #expect(try await credentials.load()?.package == next)
        #expect(await store.writes == 2)

        let foreign = await captureError { try await credentials.replacePackage(Self.package(user: "user-2")) }
        #expect(foreign?.code == .invalidResponse)
        #expect(try await credentials.load()?.package == next)
    }

    @Test("a failed write leaves the old package readable and reports storage_failed")
    func failedWriteKeepsOld() async throws {
        let store = FlakySecureStore()
        let credentials = CredentialStore(store: store)
        let original = VaultCredential(package: Self.package(), attestationFormat: nil)
        try await credentials.save(original)
        await store.setFailWrites(true)
        let error = await captureError { try await credentials.replacePackage(Self.package(keys: 1, version: 2)) }
        #expect(error?.code == .storageFailed)
        #expect(try await credentials.load()?.package == original.package)
    }

    @Test("an unreadable item is storage_failed; no item is not_enrolled")
    func corruptedAndMissing() async throws {
        let store = InMemorySecureStore(items: ["vettid.vault.credential": Data("not json".utf8)])
        let credentials = CredentialStore(store: store)
        #expect(await captureError { _ = try await credentials.load() }?.code == .storageFailed)
        let empty = CredentialStore(store: InMemorySecureStore())
        #expect(await captureError { _ = try await empty.require() }?.code == .notEnrolled)
        try await empty.remove()
    }

    @Test("descriptions never show the blob or the LAT token")
    func descriptionsRedact() {
        let package = Self.package()
        #expect(!package.description.contains("c2VhbGVk"))
        #expect(!package.description.contains("dG9rZW4"))
        #expect(!package.ledgerAuthToken.description.contains("dG9rZW4"))
    }

    @Test("LAT comparison needs id, token and version to match")
    func latMatching() {
        let lat = LedgerAuthToken(latID: "lat-1", token: "abc", version: 3)
        #expect(lat.matches(LedgerAuthToken(latID: "lat-1", token: "abc", version: 3)))
        #expect(!lat.matches(LedgerAuthToken(latID: "lat-2", token: "abc", version: 3)))
        #expect(!lat.matches(LedgerAuthToken(latID: "lat-1", token: "abd", version: 3)))
        #expect(!lat.matches(LedgerAuthToken(latID: "lat-1", token: "abcd", version: 3)))
        #expect(!lat.matches(LedgerAuthToken(latID: "lat-1", token: "abc", version: 4)))
    }
}

enum TransactionKeyTestKeys {
    /// A valid X25519 public key in base64url (32 bytes).
    static let publicKey = "3p7bfXt9wbTTW2HC7OQ1Nz-DQ8hbeGdNrfx-FG-IK08"
}
