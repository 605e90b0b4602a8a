// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import Foundation
import Testing
import VettIDCore
import VettIDCrypto

@testable import VettIDClient

@Suite("PinnedVaultKeys")
struct PinnedVaultKeysTests {
    static let jwk = P256PublicJWK(publicKey: P256.Signing.PrivateKey().publicKey)

    static func key(
        kid: String = "vault-session-1", kty: String = "EC", crv: String = "P-256", alg: String = "ES256",
        x: String = jwk.x, y: String = jwk.y
    ) throws(PinnedVaultKeyError) -> PinnedVaultKeys.Key {
        try PinnedVaultKeys.Key(kid: kid, kty: kty, crv: crv, alg: alg, x: x, y: y)
    }

    @Test("a well-formed JWK parses to its public key")
    func parses() throws {
        let key = try Self.key()
        #expect(key.jwk == Self.jwk)
        let set = try PinnedVaultKeys(keys: [key], currentKID: "vault-session-1")
        #expect(set.publicKeys["vault-session-1"]?.rawRepresentation == Self.jwk.publicKey.rawRepresentation)
    }

    @Test("each malformed member is refused with its code")
    func refusals() {
        // A valid x with a y that puts the point off the curve.
        let offCurve = Base64URL.encode([UInt8](repeating: 1, count: 32))
        let cases: [(PinnedVaultKeyError.Code, () throws(PinnedVaultKeyError) -> PinnedVaultKeys.Key)] = [
            (.unsupportedKeyType, { () throws(PinnedVaultKeyError) in try Self.key(kty: "OKP") }),
            (.unsupportedCurve, { () throws(PinnedVaultKeyError) in try Self.key(crv: "P-384") }),
            (.unsupportedAlgorithm, { () throws(PinnedVaultKeyError) in try Self.key(alg: "ES384") }),
            (.invalidPoint, { () throws(PinnedVaultKeyError) in try Self.key(y: offCurve) }),
            (.invalidPoint, { () throws(PinnedVaultKeyError) in try Self.key(x: Self.jwk.x + "=") }),
            (.invalidPoint, { () throws(PinnedVaultKeyError) in try Self.key(x: String(Self.jwk.x.dropLast())) }),
            (.invalidKeyID, { () throws(PinnedVaultKeyError) in try Self.key(kid: "") }),
        ]
        for (code, make) in cases {
            let error = #expect(throws: PinnedVaultKeyError.self) { try make() }
            #expect(error?.code == code)
        }
    }

    @Test("a set needs 1 to 64 distinct kids and a current kid among them")
    func setRefusals() throws {
        let key = try Self.key()
        let empty = #expect(throws: PinnedVaultKeyError.self) { try PinnedVaultKeys(keys: [], currentKID: "x") }
        #expect(empty?.code == .invalidKeySet)
        let notAmong = #expect(throws: PinnedVaultKeyError.self) {
            try PinnedVaultKeys(keys: [key], currentKID: "vault-session-2")
        }
        #expect(notAmong?.code == .invalidKeySet)
        let twice = #expect(throws: PinnedVaultKeyError.self) {
            try PinnedVaultKeys(keys: [key, key], currentKID: "vault-session-1")
        }
        #expect(twice?.code == .invalidKeyID)
    }

    @Test("stored with the credential, version 2; a version 1 item without keys still loads")
    func storedWithCredential() async throws {
        let store = InMemorySecureStore()
        let credentials = CredentialStore(store: store)
        let package = String(decoding: try JSONEncoder().encode(CredentialStoreTests.package()), as: UTF8.self)
        let old = #"{"package":\#(package),"updated_at":0}"#
        try await store.set(Data(old.utf8), forKey: credentials.storageKey)
        let loaded = try #require(try await credentials.load())
        #expect(loaded.vaultSessionKeys == nil)

        let keys = try PinnedVaultKeys(keys: [try Self.key()], currentKID: "vault-session-1")
        try await credentials.replaceVaultSessionKeys(keys)
        let raw = try #require(try await store.data(forKey: credentials.storageKey))
        let object = try #require(try JSONSerialization.jsonObject(with: raw) as? [String: Any])
        #expect(object["version"] as? Int == 2)
        let storedKeys = try #require(object["vault_session_keys"] as? [String: Any])
        #expect(storedKeys["current_kid"] as? String == "vault-session-1")
        #expect(try await credentials.load()?.vaultSessionKeys == keys)
        #expect(try await credentials.load()?.package == loaded.package)

        let newer = String(decoding: raw, as: UTF8.self).replacingOccurrences(
            of: #""version":2"#, with: #""version":3"#)
        try await store.set(Data(newer.utf8), forKey: credentials.storageKey)
        await #expect(throws: APIError.self) { try await credentials.load() }
    }
}
