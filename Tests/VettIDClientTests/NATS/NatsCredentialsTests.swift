// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing
import VettIDClientTestSupport
import VettIDMessaging

@testable import VettIDClient

@Suite("NATS credentials")
struct NatsCredentialsTests {
    let issued = Date(timeIntervalSince1970: 1_900_000_000)

    @Test("isExpired at and after expiresAt, not before")
    func expiry() {
        let credentials = sampleNatsCredentials(issued: issued, lifetime: 3600)
        #expect(!credentials.isExpired(at: issued))
        #expect(!credentials.isExpired(at: issued.addingTimeInterval(3599.9)))
        #expect(credentials.isExpired(at: issued.addingTimeInterval(3600)))
        #expect(credentials.isExpired(at: issued.addingTimeInterval(7200)))
        #expect(sampleNatsCredentials(issued: Date().addingTimeInterval(-10), lifetime: 5).isExpired)
        #expect(!sampleNatsCredentials(issued: Date(), lifetime: 60).isExpired)
    }

    @Test("shouldRefresh once less than the window (one hour by default) remains")
    func refreshWindow() {
        let credentials = sampleNatsCredentials(issued: issued, lifetime: 24 * 3600)
        #expect(!credentials.shouldRefresh(at: issued))
        #expect(!credentials.shouldRefresh(at: issued.addingTimeInterval(23 * 3600)))
        #expect(credentials.shouldRefresh(at: issued.addingTimeInterval(23 * 3600 + 1)))
        #expect(credentials.shouldRefresh(at: issued.addingTimeInterval(25 * 3600)))
        #expect(!credentials.shouldRefresh(at: issued.addingTimeInterval(20 * 3600), refreshWindow: 3 * 3600))
        #expect(credentials.shouldRefresh(at: issued.addingTimeInterval(21 * 3600 + 1), refreshWindow: 3 * 3600))
        #expect(NatsCredentials.defaultRefreshWindow == 3600)
    }

    @Test("round-trips through JSON for the secure store")
    func codable() throws {
        let credentials = sampleNatsCredentials(issued: issued)
        let data = try JSONEncoder().encode(credentials)
        let decoded = try JSONDecoder().decode(NatsCredentials.self, from: data)
        #expect(decoded == credentials)
        #expect(decoded.namespace.userGUID == "user-1")
        #expect(decoded.permissions == NatsPermissionSet.forClient(.app, in: credentials.namespace))
        // A GUID that is not one subject token is refused.
        let text = String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\"user-1\"", with: "\"user.1\"")
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(NatsCredentials.self, from: Data(text.utf8)) }
    }

    @Test("description, debugDescription and dump never show the JWT, seed or creds")
    func redaction() {
        let credentials = sampleNatsCredentials(issued: issued)
        var dumped = ""
        dump(credentials, to: &dumped)
        for text in [
            credentials.description, credentials.debugDescription, "\(credentials)", String(reflecting: credentials),
            dumped,
        ] {
            #expect(text.contains("tok-1"))
            #expect(!text.contains(credentials.seed))
            #expect(!text.contains("secret-jwt-body"))
            #expect(!text.contains("secret\n"))
        }
    }

    @Test("the credential store keeps one item under <prefix>.nats.credentials; unreadable items count as none")
    func store() async throws {
        let backing = InMemorySecureStore()
        let store = NatsCredentialStore(store: backing, keyPrefix: "app")
        #expect(store.storageKey == "app.nats.credentials")
        #expect(await store.load() == nil)
        let credentials = sampleNatsCredentials(issued: issued)
        try await store.save(credentials)
        #expect(await backing.keys == ["app.nats.credentials"])
        #expect(await NatsCredentialStore(store: backing, keyPrefix: "app").load() == credentials)
        try await backing.set(Data("garbage".utf8), forKey: "app.nats.credentials")
        #expect(await NatsCredentialStore(store: backing, keyPrefix: "app").load() == nil)
        await store.remove()
        #expect(await backing.keys.isEmpty)
    }
}
