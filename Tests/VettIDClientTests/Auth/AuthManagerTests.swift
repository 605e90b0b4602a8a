// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing
import VettIDCore

@testable import VettIDClient

@MainActor
@Suite("AuthManager")
struct AuthManagerTests {
    static let password = "a sufficiently long passphrase"

    func makeManager(server: FakeAuthServer, store: any SecureStore) throws -> AuthManager {
        // These tests are about the session's storage; the fake server issues bearer tokens.
        let configuration = try AuthManager.Configuration(
            baseURL: testBaseURL,
            store: store,
            binding: .bearer,
            transport: server.transport(),
            retryPolicy: .disabled
        )
        return AuthManager(configuration: configuration)
    }

    @Test("register logs in; restart with the same store restores the session")
    func registerAndRestore() async throws {
        let server = FakeAuthServer()
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let keys = FileSecureStoreKeyProvider(url: directory.appendingPathComponent("store.key"))
        let storeURL = directory.appendingPathComponent("store.bin")

        let manager = try makeManager(server: server, store: EncryptedFileSecureStore(url: storeURL, keyProvider: keys))
        #expect(!manager.isAuthenticated)
        try await manager.register(email: "member@example.com", password: Self.password)
        #expect(manager.isAuthenticated)
        #expect(manager.currentUser?.email == "member@example.com")
        #expect(manager.error == nil)
        #expect(!manager.isLoading)

        // "Restart": a new manager over a new store instance on the same file and key.
        let restarted = try makeManager(
            server: server,
            store: EncryptedFileSecureStore(url: storeURL, keyProvider: FileSecureStoreKeyProvider(url: keys.url))
        )
        #expect(!restarted.isAuthenticated)
        await restarted.restoreSession()
        #expect(restarted.isAuthenticated)
        #expect(restarted.currentUser?.email == "member@example.com")
        #expect(restarted.error == nil)
    }

    @Test("login failure sets error and stays signed out")
    func loginFailure() async throws {
        let server = FakeAuthServer()
        let manager = try makeManager(server: server, store: InMemorySecureStore())
        do {
            try await manager.login(email: "nobody@example.com", password: Self.password)
            Issue.record("expected invalid_credentials")
        } catch APIError.invalidCredentials {
            #expect(manager.error?.code == .invalidCredentials)
            #expect(manager.error?.status == 401)
        }
        #expect(!manager.isAuthenticated)
        #expect(!manager.isLoading)
    }

    @Test("register surfaces weak_password reasons and does not log in")
    func weakPassword() async throws {
        let manager = try makeManager(server: FakeAuthServer(), store: InMemorySecureStore())
        let error = await #expect(throws: APIError.self) {
            try await manager.register(email: "member@example.com", password: "short")
        }
        #expect(error?.code == .weakPassword)
        #expect(error?.reasons == ["at least 12 characters"])
        #expect(manager.error?.code == .weakPassword)
        #expect(!manager.isAuthenticated)
    }

    @Test("an expired access token is refreshed transparently by checkAuthStatus")
    func refreshOnCheck() async throws {
        let server = FakeAuthServer()
        let store = InMemorySecureStore()
        let manager = try makeManager(server: server, store: store)
        try await manager.register(email: "member@example.com", password: Self.password)
        await server.expireAccessTokens()
        await manager.checkAuthStatus()
        #expect(manager.isAuthenticated)
        #expect(manager.error == nil)
        #expect(await server.refreshCalls == 1)
        #expect(await manager.apiClient.session.current?.accessToken == "access-2")
    }

    @Test("invalid session (invalid_token then invalid_grant) signs out and clears the store")
    func invalidSessionClears() async throws {
        let server = FakeAuthServer()
        let store = InMemorySecureStore()
        let manager = try makeManager(server: server, store: store)
        try await manager.register(email: "member@example.com", password: Self.password)
        #expect(await store.keys == ["vettid.session.tokens", "vettid.session.user"])
        await server.revokeAll()
        await manager.checkAuthStatus()
        #expect(!manager.isAuthenticated)
        #expect(manager.error?.code == .invalidGrant)
        #expect(await store.keys.isEmpty)

        // A restart after that finds nothing to restore.
        let restarted = try makeManager(server: server, store: store)
        await restarted.restoreSession()
        #expect(!restarted.isAuthenticated)
    }

    @Test("logout revokes on the server and clears the store")
    func logout() async throws {
        let server = FakeAuthServer()
        let store = InMemorySecureStore()
        let manager = try makeManager(server: server, store: store)
        try await manager.register(email: "member@example.com", password: Self.password)
        await manager.logout()
        #expect(!manager.isAuthenticated)
        #expect(manager.error == nil)
        #expect(await server.logoutCalls == 1)
        #expect(await store.keys.isEmpty)
        let restarted = try makeManager(server: server, store: store)
        await restarted.restoreSession()
        #expect(!restarted.isAuthenticated)
    }

    @Test("the access token is taken from Set-Cookie when the body has none")
    func tokenFromCookie() async throws {
        let server = FakeAuthServer()
        await server.setCookieOnly(true)
        let manager = try makeManager(server: server, store: InMemorySecureStore())
        try await manager.register(email: "member@example.com", password: Self.password)
        #expect(await manager.apiClient.session.current?.accessToken == "access-1")
        await manager.checkAuthStatus()
        #expect(manager.isAuthenticated)
        #expect(manager.error == nil)
    }

    @Test("offline restore keeps the stored user and reports the network error")
    func offlineRestore() async throws {
        let server = FakeAuthServer()
        let store = InMemorySecureStore()
        try await makeManager(server: server, store: store).register(
            email: "member@example.com", password: Self.password)
        let offline = AuthManager(
            configuration: try .init(
                baseURL: testBaseURL,
                store: store,
                binding: .bearer,
                transport: FakeTransport { _ in throw FakeNetworkError() },
                retryPolicy: .disabled
            )
        )
        await offline.restoreSession()
        #expect(offline.isAuthenticated)
        #expect(offline.error?.code == .networkError)
        #expect(await store.keys.count == 2)
    }

    @Test("the base URL must have an http(s) scheme and a host")
    func baseURLValidation() throws {
        for bad in ["localhost:8080", "ftp://example.com", "https://", "/relative", "https://example.com/?q=1"] {
            #expect(throws: ConfigurationError.self, "\(bad)") {
                _ = try APIClientConfiguration(baseURL: bad, transport: FakeTransport { _ in throw FakeNetworkError() })
            }
        }
        _ = try APIClientConfiguration(
            baseURL: "https://api.example.com/v1", transport: FakeTransport { _ in throw FakeNetworkError() })
    }

    @Test("cookie parsing")
    func cookieParsing() {
        #expect(CookieParser.value(named: "auth-token", inSetCookie: "auth-token=abc; HttpOnly; Secure") == "abc")
        #expect(
            CookieParser.value(named: "auth-token", inSetCookie: "other=1; Path=/, auth-token=xyz; HttpOnly") == "xyz")
        #expect(CookieParser.value(named: "auth-token", inSetCookie: "auth-token=; Max-Age=0") == nil)
        #expect(CookieParser.value(named: "auth-token", inSetCookie: "session=abc") == nil)
    }
}
