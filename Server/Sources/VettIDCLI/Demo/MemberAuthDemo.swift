// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Logging
import VettIDAPI
import VettIDClient
import VettIDCore
import VettIDServer

/// The demo's member section: registration (a weak password refused first), sign-in, the session and sign-out,
/// through the SDK's `AuthManager` as an app would use it.
@MainActor
struct MemberAuthDemo {
    let reporter: DemoReporter

    func run(on backend: DemoBackend) async throws {
        let server = backend.server
        let email = "demo-\(UUID().uuidString.prefix(8).lowercased())@example.com"
        let password = "vivid-Otter-parsley-42"
        let deviceDirectory = server.directory.appendingPathComponent("device")
        try FileManager.default.createDirectory(
            at: deviceDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let store = EncryptedFileSecureStore(
            url: deviceDirectory.appendingPathComponent("secure.store"),
            keyProvider: FileSecureStoreKeyProvider(url: deviceDirectory.appendingPathComponent("secure.key"))
        )

        reporter.section("member auth")
        let auth = try makeManager(server: server, store: store)
        try await reporter.step("refuse weak password") {
            do {
                try await auth.register(email: email, password: "password1234")
                throw DemoFailure("the server accepted a weak password")
            } catch let error as APIError where error.code == .weakPassword {
                return ((), "weak_password: \(error.reasons.joined(separator: "; "))")
            }
        }
        try await reporter.step("register") {
            try await auth.register(email: email, password: password)
            return ((), "\(auth.currentUser?.email ?? "?") created and signed in")
        }
        try await reporter.step("logout") {
            await auth.logout()
            return ((), auth.isAuthenticated ? "still signed in?" : "session revoked on the server and cleared locally")
        }
        try await reporter.step("refuse wrong password") {
            do {
                try await auth.login(email: email, password: "Wrong-\(password)")
                throw DemoFailure("the server accepted a wrong password")
            } catch let error as APIError where error.code == .invalidCredentials {
                return ((), "invalid_credentials (same answer as for an unknown email)")
            }
        }
        try await reporter.step("login") {
            try await auth.login(email: email, password: password)
            let tokens = await auth.apiClient.session.current
            return ((), "\(tokens?.tokenType ?? "?") token, expires \(Self.time(tokens?.accessTokenExpiresAt))")
        }
        try await reporter.step("current user") {
            await auth.checkAuthStatus()
            guard let user = auth.currentUser else { throw auth.error ?? DemoFailure("not signed in") }
            return ((), "GET /auth/me → \(user.email) (id \(user.id.prefix(8))…)")
        }
        let before = await auth.apiClient.session.current?.refreshToken
        try await reporter.step("refresh") {
            let tokens = try await auth.apiClient.session.refresh(rejectedAccessToken: nil)
            guard tokens.refreshToken != before else { throw DemoFailure("the refresh token did not rotate") }
            return ((), "POST /auth/refresh → new access token and a new single-use refresh token")
        }
        try await reporter.step("restart restores session") {
            let restarted = try makeManager(server: server, store: store)
            await restarted.restoreSession()
            guard restarted.currentUser?.email == email else {
                throw restarted.error ?? DemoFailure("session not restored")
            }
            return ((), "a new AuthManager over the same encrypted store is signed in as \(email)")
        }
        let lastTokens = await auth.apiClient.session.current
        try await reporter.step("logout") {
            await auth.logout()
            return ((), "session revoked on the server and cleared locally")
        }
        try await reporter.step("refuse revoked tokens") {
            guard let lastTokens else { throw DemoFailure("no session to replay") }
            let configuration = auth.apiClient.configuration
            let session = TokenSession(
                store: InMemorySecureStore(), refresher: APIClient.makeRefresher(configuration: configuration))
            let replay = APIClient(configuration: configuration, session: session)
            try await replay.session.update(lastTokens)
            do {
                _ = try await replay.perform { client in try await client.getCurrentUser() }
                throw DemoFailure("the server accepted a token of a logged-out session")
            } catch let error as APIError where [.invalidToken, .invalidGrant].contains(error.code) {
                return ((), "the logged-out session's access and refresh tokens are refused (\(error.code))")
            }
        }
    }

    /// Passkeys with the CLI's software authenticator (a P-256 key in the device's store): add one, sign in with it
    /// without a password, remove it, and the server refuses it afterwards.
    func runPasskeys(on backend: DemoBackend) async throws {
        let server = backend.server
        let email = "passkey-\(UUID().uuidString.prefix(8).lowercased())@example.com"
        let store = InMemorySecureStore()
        let auth = try makeManager(server: server, store: store)
        let authenticator = SoftwarePasskeyAuthenticator(store: store, serverURL: server.baseURL)
        reporter.section("passkeys")
        try await auth.register(email: email, password: "vivid-Otter-parsley-42")
        let passkey = try await reporter.step("passkey: add") {
            let passkey = try await auth.addPasskey(named: "Demo terminal", using: authenticator)
            return (
                passkey,
                "\"\(passkey.name)\" registered (ES256, none attestation, counter kept in the store; id \(passkey.id.prefix(10))…)"
            )
        }
        await auth.logout()
        try await reporter.step("passkey: sign in") {
            try await auth.signInWithPasskey(using: authenticator)
            guard auth.currentUser?.email == email else { throw DemoFailure("signed in as someone else") }
            let tokens = await auth.apiClient.session.current
            return ((), "no password: the passkey's user handle named \(email); \(tokens?.tokenType ?? "?") token")
        }
        try await reporter.step("passkey: remove") {
            try await auth.removePasskey(id: passkey.id)
            await auth.logout()
            do {
                try await auth.signInWithPasskey(using: authenticator)
                throw DemoFailure("the server accepted a removed passkey")
            } catch let error as APIError where error.code == .passkeyRejected {
                return ((), "removed; signing in with it again: 401 passkey_rejected")
            }
        }
    }

    private func makeManager(server: LoopbackServer, store: any SecureStore) throws -> AuthManager {
        var logger = Logger(label: "vettid-sdk") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = .error
        return AuthManager(configuration: try .init(baseURL: server.baseURL, store: store, logger: logger))
    }

    private static func time(_ date: Date?) -> String {
        guard let date else { return "?" }
        return "in \(Int(date.timeIntervalSinceNow.rounded())) s"
    }
}

struct DemoFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
