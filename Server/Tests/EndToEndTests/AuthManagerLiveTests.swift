// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Logging
import Testing
import VettIDAPI
import VettIDClient
import VettIDCore
import VettIDServer

/// The SDK's AuthManager against a real server over real HTTP (AsyncHTTPClient on Linux).
@Suite struct AuthManagerLiveTests {
    static let engines: [Bool] =
        ProcessInfo.processInfo.environment["VETTID_TEST_DATABASE_URL"] == nil ? [false] : [false, true]

    @MainActor
    func makeManager(_ server: LiveServer, store: any SecureStore) throws -> AuthManager {
        var logger = Logger(label: "e2e-sdk")
        logger.logLevel = .error
        return AuthManager(configuration: try .init(baseURL: server.baseURL, store: store, logger: logger))
    }

    @Test(arguments: engines)
    @MainActor
    func fullSessionAndRestartRestore(postgres: Bool) async throws {
        try await LiveServer.withServer(postgres: postgres) { server in
            let directory = server.directory.appendingPathComponent("device")
            let store = EncryptedFileSecureStore(
                url: directory.appendingPathComponent("store"),
                keyProvider: FileSecureStoreKeyProvider(url: directory.appendingPathComponent("key"))
            )
            let auth = try makeManager(server, store: store)
            await auth.restoreSession()
            #expect(auth.isAuthenticated == false)

            try await auth.register(email: "Live@Example.com", password: "vivid-Otter-parsley-42")
            #expect(auth.currentUser?.email == "live@example.com")
            #expect(auth.isLoading == false)
            #expect(auth.error == nil)

            await auth.checkAuthStatus()
            #expect(auth.currentUser?.email == "live@example.com")

            // Restart: a new manager over the same store restores the session and the server confirms it.
            let restarted = try makeManager(server, store: store)
            await restarted.restoreSession()
            #expect(restarted.isAuthenticated)
            #expect(restarted.currentUser?.id == auth.currentUser?.id)

            // Refresh rotates; the old refresh token is then refused by the server.
            let before = try #require(await restarted.apiClient.session.current)
            let after = try await restarted.apiClient.session.refresh(rejectedAccessToken: nil)
            #expect(after.refreshToken != before.refreshToken)
            #expect(after.accessToken != before.accessToken)

            await restarted.logout()
            #expect(restarted.isAuthenticated == false)
            #expect(try await store.keys().filter { $0.hasPrefix("vettid.session") }.isEmpty, "logout clears the store")

            // The first manager still holds the old session in memory: the server refuses it and it signs out.
            await auth.checkAuthStatus()
            #expect(auth.isAuthenticated == false)
        }
    }

    @Test
    @MainActor
    func concurrentRequestsAfterExpiryRefreshOnce() async throws {
        try await LiveServer.withServer(configure: { $0.tokens.accessTokenLifetime = .seconds(30) }) { server in
            let auth = try makeManager(server, store: InMemorySecureStore())
            try await auth.register(email: "burst@example.com", password: "vivid-Otter-parsley-42")
            // Invalidate the access token in place (keep the refresh token) so every request gets a 401.
            var tokens = try #require(await auth.apiClient.session.current)
            tokens.accessToken = "expired.\(tokens.accessToken.split(separator: ".")[1]).invalid"
            try await auth.apiClient.session.update(tokens)
            let refreshesBefore = await auth.apiClient.session.refreshesStarted
            let client = auth.apiClient
            let emails = try await Self.currentUserEmails(client, times: 20)
            #expect(emails == Array(repeating: "burst@example.com", count: 20))
            #expect(
                await auth.apiClient.session.refreshesStarted == refreshesBefore + 1, "20 concurrent 401s, one refresh")
        }
    }

    /// `times` concurrent GET /auth/me through `client`.
    nonisolated static func currentUserEmails(_ client: APIClient, times: Int) async throws -> [String] {
        try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<times {
                group.addTask {
                    let output = try await client.perform { try await $0.getCurrentUser() }
                    guard case .UserResponse(let response) = try output.ok.body.json else {
                        throw E2EFailure("/auth/me did not answer {\"user\": …}")
                    }
                    return response.user.email
                }
            }
            var emails: [String] = []
            for try await email in group { emails.append(email) }
            return emails
        }
    }

    @Test
    @MainActor
    func wrongPasswordAndWeakPasswordSurfaceAsAPIErrors() async throws {
        try await LiveServer.withServer { server in
            let auth = try makeManager(server, store: InMemorySecureStore())
            await #expect(throws: APIError.self) {
                try await auth.register(email: "w@example.com", password: "password1234")
            }
            #expect(auth.error?.code == .weakPassword)
            #expect(auth.error?.reasons.isEmpty == false)
            try await auth.register(email: "w@example.com", password: "vivid-Otter-parsley-42")
            await auth.logout()
            await #expect(throws: APIError.self) {
                try await auth.login(email: "w@example.com", password: "nope-nope-nope-1")
            }
            #expect(auth.error?.code == .invalidCredentials)
            #expect(auth.isAuthenticated == false)
        }
    }
}
