// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes
import Testing
import VettIDCrypto

@testable import VettIDClient

/// One nonce memory per server: what one client of an origin received goes into every client's next proof to it,
/// and a persisting store hands it to the next process.
@MainActor
@Suite("DPoP nonces shared per origin and kept across launches")
struct SharedDPoPNonceTests {
    /// The vault server, with the member-auth endpoints in front: login answers tokens and the server's current
    /// `DPoP-Nonce`, as every proven request to a VettID server does.
    static func transport(_ server: FakeVaultServer) -> FakeTransport {
        FakeTransport { request in
            switch request.path {
            case "/auth/login":
                return jsonResponse(
                    .ok, tokenResponseJSON(access: "access-1", refresh: "refresh-1", tokenType: "DPoP"),
                    headers: [dpopNonceField: await server.nonces.current])
            case "/auth/me":
                return jsonResponse(.ok, userJSON(), headers: [dpopNonceField: await server.nonces.current])
            default:
                return await server.handle(request)
            }
        }
    }

    static func vettid(store: any SecureStore, transport: FakeTransport) throws -> VettID {
        try VettID(
            configuration: VettIDConfiguration(
                baseURL: URL(string: FakeVaultServer.baseURL)!, teamID: "ABCDE12345", bundleID: "com.example.app",
                developmentToken: "dev-token", storage: .store(store), platform: .linux, transport: transport))
    }

    @Test("after the member session received a nonce, the vault's first proof carries it: no use_dpop_nonce retry")
    func aNonceOneClientReceivedGoesIntoAnothersProof() async throws {
        let server = try FakeVaultServer()
        let transport = Self.transport(server)
        let vettid = try Self.vettid(store: InMemorySecureStore(), transport: transport)

        try await vettid.auth.login(email: "member@example.com", password: "a sufficiently long passphrase")
        _ = try await vettid.vault.enrollStart(invitationCode: FakeVaultServer.invitationCode)

        let starts = await transport.log.requests.filter { $0.path == "/vault/enroll/start" }
        #expect(starts.count == 1, "the first proof to /vault/enroll/start was refused and retried")
        let nonce = try proofClaims(try #require(starts.first).headers[dpopField])["nonce"]?.stringValue
        #expect(nonce == (await server.nonces.current))
    }

    @Test("a relaunch over the same store starts with the stored nonce: its first request is not refused")
    func aRelaunchStartsWithTheStoredNonce() async throws {
        let server = try FakeVaultServer()
        let store = InMemorySecureStore()
        let first = Self.transport(server)
        try await Self.vettid(store: store, transport: first).auth.login(
            email: "member@example.com", password: "a sufficiently long passphrase")

        let second = Self.transport(server)
        _ = try await Self.vettid(store: store, transport: second).vault.enrollStart(
            invitationCode: FakeVaultServer.invitationCode)

        let requests = await second.log.requests
        #expect(requests.map(\.path) == ["/vault/enroll/start"], "the relaunched process met use_dpop_nonce first")
    }

    @Test("the persisted nonces: read on first use, newest per origin, an unreadable value starts empty")
    func persistence() async throws {
        let store = InMemorySecureStore()
        let url = URL(string: "https://api.example.com/token")!
        let other = URL(string: "https://api.example.com:8443/token")!
        let writer = DPoPNonceStore(persistingIn: store, storageKey: "nonces")
        await writer.record("n1", for: url)
        await writer.record("n2", for: url)
        await writer.record("m1", for: other)

        let reader = DPoPNonceStore(persistingIn: store, storageKey: "nonces")
        #expect(await reader.nonce(for: URL(string: "https://API.example.com/auth/me")!) == "n2")
        #expect(await reader.nonce(for: other) == "m1")
        #expect(await DPoPNonceStore(persistingIn: store, storageKey: "elsewhere").nonce(for: url) == nil)

        try await store.set(Data("not json".utf8), forKey: "broken")
        let broken = DPoPNonceStore(persistingIn: store, storageKey: "broken")
        #expect(await broken.nonce(for: url) == nil)
        await broken.record("n3", for: url)
        #expect(await DPoPNonceStore(persistingIn: store, storageKey: "broken").nonce(for: url) == "n3")

        await reader.removeAll()
        #expect(await DPoPNonceStore(persistingIn: store, storageKey: "nonces").nonce(for: url) == nil)
    }
}
