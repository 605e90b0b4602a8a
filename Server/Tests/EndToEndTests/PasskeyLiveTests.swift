// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Logging
import Testing
import VettIDAPI
import VettIDAttestation
import VettIDClient
import VettIDCore
import VettIDCrypto
import VettIDServer
import VettIDTestSupport

/// Passkeys end to end: the SDK's AuthManager with its software authenticator against a live server over HTTP,
/// and every refusal that needs the server's state (challenges, credentials, members) forged over the wire.
@Suite struct PasskeyLiveTests {
    static let engines: [Bool] =
        ProcessInfo.processInfo.environment["VETTID_TEST_DATABASE_URL"] == nil ? [false] : [false, true]
    static let password = "vivid-Otter-parsley-42"

    @MainActor
    static func manager(
        _ server: LiveServer, store: any SecureStore = InMemorySecureStore(), clock: any WallClock = SystemWallClock()
    ) throws -> AuthManager {
        var logger = Logger(label: "e2e-passkeys")
        logger.logLevel = .error
        return AuthManager(
            configuration: try .init(baseURL: server.baseURL, store: store, logger: logger, clock: clock))
    }

    @Test(arguments: engines)
    @MainActor
    func addSignInRenameAndRemoveWithTheSoftwareAuthenticator(postgres: Bool) async throws {
        try await LiveServer.withServer(postgres: postgres) { server in
            let store = InMemorySecureStore()
            let authenticator = SoftwarePasskeyAuthenticator(store: store, serverURL: server.baseURL)
            let auth = try Self.manager(server, store: store)
            try await auth.register(email: "passkey@example.com", password: Self.password)
            let memberID = try #require(auth.currentUser?.id)

            let added = try await auth.addPasskey(named: "Laptop", using: authenticator)
            #expect(added.name == "Laptop")
            #expect(added.lastUsedAt == nil)
            #expect(!added.isSynced && !added.isBackedUp)
            let second = try await auth.addPasskey(
                using: SoftwarePasskeyAuthenticator(
                    store: InMemorySecureStore(), serverURL: server.baseURL))
            #expect(second.name.hasPrefix("Passkey added "))
            #expect(try await auth.passkeys().map(\.id) == [added.id, second.id])

            await auth.logout()
            #expect(!auth.isAuthenticated)
            // A discoverable sign-in: the user handle names the member.
            try await auth.signInWithPasskey(using: authenticator)
            #expect(auth.currentUser?.id == memberID)
            let session = try #require(await auth.apiClient.session.current)
            #expect(session.tokenType == "DPoP", "a passkey sign-in with a proof is bound to the device key")
            #expect(try await auth.passkeys().first?.lastUsedAt != nil)

            // By email: only this member's passkeys are offered.
            await auth.logout()
            try await auth.signInWithPasskey(using: authenticator, email: "Passkey@Example.com")
            #expect(auth.currentUser?.id == memberID)

            let renamed = try await auth.renamePasskey(id: added.id, to: "Work laptop")
            #expect(renamed.name == "Work laptop")
            try await auth.removePasskey(id: added.id)
            #expect(try await auth.passkeys().map(\.id) == [second.id])
            await #expect(throws: APIError.self) { try await auth.removePasskey(id: added.id) }

            // The removed passkey no longer signs in; the password still does.
            await auth.logout()
            await #expect {
                try await auth.signInWithPasskey(using: authenticator)
            } throws: { error in (error as? APIError)?.code == .passkeyRejected }
            try await auth.login(email: "passkey@example.com", password: Self.password)
            #expect(auth.isAuthenticated)
        }
    }

    @Test
    @MainActor
    func anAuthenticatorWithoutAPasskeyReportsNoCredential() async throws {
        try await LiveServer.withServer { server in
            let auth = try Self.manager(server)
            await #expect {
                try await auth.signInWithPasskey(
                    using: SoftwarePasskeyAuthenticator(store: InMemorySecureStore(), serverURL: server.baseURL))
            } throws: { error in
                (error as? APIError)?.code == .passkeyFailed
                    && ((error as? APIError)?.underlying as? PasskeyError)?.code == .noCredential
            }
        }
    }

    /// A member with one passkey made by a ``TestPasskey`` (so that tests can forge its responses).
    struct Member {
        let auth: AuthManager
        let key: TestPasskey
        let userHandle: [UInt8]
    }

    @MainActor
    static func member(
        _ email: String, _ server: LiveServer, clock: any WallClock = SystemWallClock()
    ) async throws -> Member {
        let auth = try manager(server, clock: clock)
        try await auth.register(email: email, password: password)
        let key = try TestPasskey()
        let options = try await startRegistration(auth)
        let origin = server.baseURL.absoluteString.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        let response = try key.registration(
            challenge: try #require(Base64URL.decode(options.challenge)), rpID: options.rp.id, origin: origin)
        _ = try await finishRegistration(auth, response)
        return Member(auth: auth, key: key, userHandle: try #require(Base64URL.decode(options.user.id)))
    }

    @MainActor
    static func startRegistration(_ auth: AuthManager) async throws -> Components.Schemas.PasskeyCreationOptions {
        let output = try await auth.apiClient.perform { try await $0.startPasskeyRegistration() }
        return try output.ok.body.json
    }

    @MainActor
    static func finishRegistration(_ auth: AuthManager, _ response: PasskeyRegistrationResponse) async throws
        -> Operations.RegisterPasskey.Output
    {
        let id = Base64URL.encode(response.credentialID)
        let credential = Components.Schemas.PasskeyRegistrationResponseJSON(
            id: id, rawId: id, _type: .publicKey,
            response: .init(
                clientDataJSON: Base64URL.encode(response.clientDataJSON),
                attestationObject: Base64URL.encode(response.attestationObject)))
        return try await auth.apiClient.perform {
            try await $0.registerPasskey(body: .json(.init(credential: credential)))
        }
    }

    static func signInChallenge(_ client: AuthManager, email: String? = nil) async throws -> [UInt8] {
        let output = try await client.apiClient.perform {
            try await $0.startPasskeySignIn(body: .json(.init(email: email)))
        }
        return try #require(Base64URL.decode(try output.ok.body.json.challenge))
    }

    /// Sends an assertion; the error code of the refusal, or `nil` when it signed in.
    static func signIn(_ client: AuthManager, _ response: PasskeyAssertionResponse) async -> APIErrorCode? {
        let id = Base64URL.encode(response.credentialID)
        let credential = Components.Schemas.PasskeyAuthenticationResponseJSON(
            id: id, rawId: id, _type: .publicKey,
            response: .init(
                clientDataJSON: Base64URL.encode(response.clientDataJSON),
                authenticatorData: Base64URL.encode(response.authenticatorData),
                signature: Base64URL.encode(response.signature), userHandle: response.userHandle.map(Base64URL.encode)))
        do {
            _ = try await client.apiClient.perform {
                try await $0.signInWithPasskey(body: .json(.init(credential: credential)))
            }
            return nil
        } catch {
            return error.code
        }
    }

    @Test(arguments: engines)
    @MainActor
    func forgedSignInsAreRefused(postgres: Bool) async throws {
        try await LiveServer.withServer(postgres: postgres) { server in
            let origin = server.baseURL.absoluteString.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
            let rpID = "localhost"
            let alice = try await Self.member("alice@example.com", server)
            let bob = try await Self.member("bob@example.com", server)
            let visitor = try Self.manager(server)

            // The genuine sign-in works, once: the same response again is a replayed challenge.
            var challenge = try await Self.signInChallenge(visitor)
            let genuine = try alice.key.assertion(
                challenge: challenge, rpID: rpID, origin: origin, signCount: 5, userHandle: alice.userHandle)
            #expect(await Self.signIn(visitor, genuine) == nil)
            #expect(await Self.signIn(visitor, genuine) == .passkeyRejected, "replayed challenge")

            // A challenge the server never issued.
            #expect(
                await Self.signIn(
                    visitor,
                    try alice.key.assertion(
                        challenge: [1, 2, 3, 4], rpID: rpID, origin: origin, signCount: 6, userHandle: alice.userHandle)
                )
                    == .passkeyRejected)

            // A registration's challenge (another ceremony) used to sign in.
            let registration = try await Self.startRegistration(alice.auth)
            #expect(
                await Self.signIn(
                    visitor,
                    try alice.key.assertion(
                        challenge: try #require(Base64URL.decode(registration.challenge)), rpID: rpID, origin: origin,
                        signCount: 6, userHandle: alice.userHandle)) == .passkeyRejected)

            // A decreasing counter (5 was accepted).
            challenge = try await Self.signInChallenge(visitor)
            #expect(
                await Self.signIn(
                    visitor,
                    try alice.key.assertion(
                        challenge: challenge, rpID: rpID, origin: origin, signCount: 3, userHandle: alice.userHandle))
                    == .passkeyRejected)

            // Another origin.
            challenge = try await Self.signInChallenge(visitor)
            #expect(
                await Self.signIn(
                    visitor,
                    try alice.key.assertion(
                        challenge: challenge, rpID: rpID, origin: "http://evil.localhost", signCount: 7,
                        userHandle: alice.userHandle)) == .passkeyRejected)

            // An unknown credential.
            challenge = try await Self.signInChallenge(visitor)
            #expect(
                await Self.signIn(
                    visitor,
                    try TestPasskey().assertion(
                        challenge: challenge, rpID: rpID, origin: origin, userHandle: alice.userHandle))
                    == .passkeyRejected)

            // Alice's passkey with Bob's user handle.
            challenge = try await Self.signInChallenge(visitor)
            #expect(
                await Self.signIn(
                    visitor,
                    try alice.key.assertion(
                        challenge: challenge, rpID: rpID, origin: origin, signCount: 8, userHandle: bob.userHandle))
                    == .passkeyRejected)

            // A ceremony started for Bob's email, answered with Alice's passkey.
            challenge = try await Self.signInChallenge(visitor, email: "bob@example.com")
            #expect(
                await Self.signIn(
                    visitor,
                    try alice.key.assertion(
                        challenge: challenge, rpID: rpID, origin: origin, signCount: 9, userHandle: alice.userHandle))
                    == .passkeyRejected)

            // After all of that, Alice's passkey still signs in (a refusal consumed no state but the challenge).
            challenge = try await Self.signInChallenge(visitor, email: "alice@example.com")
            #expect(
                await Self.signIn(
                    visitor,
                    try alice.key.assertion(
                        challenge: challenge, rpID: rpID, origin: origin, signCount: 10, userHandle: alice.userHandle))
                    == nil)
        }
    }

    @Test
    @MainActor
    func expiredChallengesAreRefused() async throws {
        // The server's clock jumps past the five minutes: no sleeping, and no race with a slow registration.
        let clock = OffsetClock()
        try await LiveServer.withServer(clock: clock) { server in
            let origin = server.baseURL.absoluteString.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
            // The client's proofs follow the same clock, as a device's clock agrees with the server's.
            let alice = try await Self.member("late@example.com", server, clock: clock)
            let challenge = try await Self.signInChallenge(alice.auth)
            let options = try await Self.startRegistration(alice.auth)
            clock.advance(by: .seconds(301))
            #expect(
                await Self.signIn(
                    alice.auth,
                    try alice.key.assertion(
                        challenge: challenge, rpID: "localhost", origin: origin, userHandle: alice.userHandle))
                    == .passkeyRejected)
            // An expired registration challenge is refused too.
            let key = try TestPasskey()
            await #expect {
                _ = try await Self.finishRegistration(
                    alice.auth,
                    try key.registration(
                        challenge: try #require(Base64URL.decode(options.challenge)), rpID: "localhost", origin: origin)
                )
            } throws: { error in (error as? APIError)?.code == .passkeyRejected }
            // Within the five minutes, the same steps pass.
            let fresh = try await Self.signInChallenge(alice.auth)
            clock.advance(by: .seconds(290))
            #expect(
                await Self.signIn(
                    alice.auth,
                    try alice.key.assertion(
                        challenge: fresh, rpID: "localhost", origin: origin, signCount: 2, userHandle: alice.userHandle)
                )
                    == nil)
        }
    }

    @Test
    @MainActor
    func registrationsAreBoundToTheirMemberAndUnique() async throws {
        try await LiveServer.withServer { server in
            let origin = server.baseURL.absoluteString.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
            let alice = try await Self.member("alice2@example.com", server)
            let bob = try await Self.member("bob2@example.com", server)

            // Bob answers a challenge issued to Alice (a foreign challenge).
            let aliceOptions = try await Self.startRegistration(alice.auth)
            let key = try TestPasskey()
            await #expect {
                _ = try await Self.finishRegistration(
                    bob.auth,
                    try key.registration(
                        challenge: try #require(Base64URL.decode(aliceOptions.challenge)), rpID: "localhost",
                        origin: origin))
            } throws: { error in (error as? APIError)?.code == .passkeyRejected }

            // Alice's credential id registered again, by Bob: 409.
            let bobOptions = try await Self.startRegistration(bob.auth)
            await #expect {
                _ = try await Self.finishRegistration(
                    bob.auth,
                    try alice.key.registration(
                        challenge: try #require(Base64URL.decode(bobOptions.challenge)), rpID: "localhost",
                        origin: origin))
            } throws: { error in (error as? APIError)?.code == .passkeyExists }

            // Bob can neither rename nor remove Alice's passkey.
            let aliceID = Base64URL.encode(alice.key.credentialID)
            await #expect {
                try await bob.auth.renamePasskey(id: aliceID, to: "mine")
            } throws: { error in (error as? APIError)?.code == .passkeyNotFound }
            await #expect {
                try await bob.auth.removePasskey(id: aliceID)
            } throws: { error in (error as? APIError)?.code == .passkeyNotFound }
            #expect(try await alice.auth.passkeys().map(\.id) == [aliceID])

            // Options list the member's passkeys as excluded.
            let again = try await Self.startRegistration(alice.auth)
            #expect(again.excludeCredentials.map(\.id) == [aliceID])
            #expect(again.rp.id == "localhost")
            #expect(again.attestation == "none")
        }
    }

    @Test
    @MainActor
    func signInOptionsDoNotTellWhichEmailsHaveAccounts() async throws {
        try await LiveServer.withServer { server in
            let alice = try await Self.member("known@example.com", server)
            func allowed(_ email: String) async throws -> [String] {
                let output = try await alice.auth.apiClient.perform {
                    try await $0.startPasskeySignIn(body: .json(.init(email: email)))
                }
                return try output.ok.body.json.allowCredentials.map(\.id)
            }
            #expect(try await allowed("known@example.com") == [Base64URL.encode(alice.key.credentialID)])
            let unknown = try await allowed("nobody@example.com")
            #expect(unknown.count == 1)
            #expect(Base64URL.decode(unknown[0])?.count == 32)
            #expect(try await allowed("nobody@example.com") == unknown, "stable, like a real credential id")
            #expect(try await allowed("somebody@example.com") != unknown)
        }
    }
}
