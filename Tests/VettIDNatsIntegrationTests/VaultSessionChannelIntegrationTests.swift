// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import Foundation
import NATSClient
import NIOCore
import Testing
import VettIDClient
import VettIDCore
import VettIDCrypto
import VettIDMessaging
import VettIDNats
import VettIDSession
import VettIDTestSupport

@Suite(
    .enabled(
        if: NATSServerProcess.isAvailable, "nats-server is not installed: sealed session integration tests skipped"))
@MainActor
struct VaultSessionChannelIntegrationTests {
    let namespace = try! VaultNamespace(userGUID: testGUID)
    let identity = try! VaultIdentityKey(kid: "vault-session-1", privateKey: P256.Signing.PrivateKey())

    /// A running nats-server, an app manager with a sealed session, and a vault instance.
    struct Rig {
        let setup: OperatorSetup
        let server: NATSServerProcess
        let manager: NatsConnectionManager
        let session: VaultSessionChannel
        let keys: PinnedKeysSource
        let clock: ManualClock
        var vault: SealedFakeVault

        /// Stops the vault and the app's connection, then nats-server.
        func finish() async {
            await vault.stop()
            await manager.disconnect()
            server.cleanUp()
        }
    }

    func makeRig(
        pinned: PinnedVaultKeys? = nil, served: PinnedVaultKeys? = nil, vaultIdentity: VaultIdentityKey? = nil,
        lifetime: Duration = .seconds(3600), maxMessages: UInt32 = 1000
    ) async throws -> Rig {
        let setup = try OperatorSetup()
        let server = try await NATSServerProcess(configuration: setup.configuration)
        let clock = ManualClock(start: Date())
        let vault = try await SealedFakeVault(
            client: try await sealedVaultClient(setup, url: server.url), identity: vaultIdentity ?? identity,
            clock: clock.wall, lifetime: lifetime, maxMessages: maxMessages)
        let keys = PinnedKeysSource(pinned: try pinned ?? .single(identity), served: served)
        let session = VaultSessionChannel(
            configuration: .init(renewalMargin: .seconds(60), clock: clock.wall),
            dependencies: keys.dependencies(signer: SoftwareDPoPSigner()))
        let manager = NatsConnectionManager(
            configuration: .init(
                reconnect: NATSReconnectPolicy(
                    maxAttemptsPerServer: nil, wait: .milliseconds(100), jitter: .milliseconds(10)),
                requestTimeout: .seconds(5), drainTimeout: .seconds(3)),
            provider: LocalSigningProvider(setup: setup, namespace: namespace, endpoint: server.url, lifetime: 3600),
            store: NatsCredentialStore(store: InMemorySecureStore()), sealedSession: session)
        await manager.connect()
        #expect(manager.state == .connected)
        return Rig(
            setup: setup, server: server, manager: manager, session: session, keys: keys, clock: clock, vault: vault)
    }

    @Test("round trip: one handshake, sealed echo, sealed handler errors; a full-rights subscriber sees no plaintext")
    func roundTrip() async throws {
        let rig = try await makeRig()
        defer { rig.server.cleanUp() }
        let spy = try NATSClient(
            configuration: .init(servers: [rig.server.url], name: "spy", auth: try Self.allRights(rig.setup)))
        try await spy.connect()
        let captured = try spy.subscribe(to: ">")
        try await spy.flush()
        let box = MessageBox()
        let capture = Task {
            for await message in captured { box.append(message) }
        }
        defer { capture.cancel() }

        let owner = try rig.manager.ownerSpace()
        let secret = "correct horse battery staple"
        let payload = JSONValue.object([("secret", .string(secret))])
        #expect(try await owner.executeHandler("echo", payload: payload) == payload)
        #expect(try await owner.executeHandler(.echo, payload: .integer(2)) == .integer(2))
        let refused = await #expect(throws: NatsConnectionError.self) {
            try await owner.executeHandler("launch.rockets")
        }
        #expect(refused?.code == .vaultError)
        #expect(refused?.vaultError?.code == .unknownHandler)
        #expect(rig.session.handshakeCount == 1)
        #expect(rig.vault.acceptedCount == 1)

        // Handshake + 3 requests, each with its answer, went through nats-server.
        #expect(await eventually(timeout: .seconds(5)) { box.count >= 8 })
        let subjects = Set(box.all.map(\.subject))
        #expect(subjects.contains(namespace.sessionInit))
        #expect(subjects.contains(namespace.sealed(route: rig.vault.route.subjectToken)))
        for message in box.all {
            let text = String(decoding: message.payload.readableBytesView, as: UTF8.self)
            #expect(!text.contains(secret) && !text.contains("launch.rockets") && !text.contains("echo"))
        }
        await spy.close()
        await rig.finish()
    }

    @Test("a session is renewed before it expires, and when its requests are used up")
    func renewal() async throws {
        let rig = try await makeRig(lifetime: .seconds(300), maxMessages: 3)
        defer { rig.server.cleanUp() }
        let owner = try rig.manager.ownerSpace()
        #expect(try await owner.executeHandler("echo", payload: .integer(1)) == .integer(1))
        let first = try #require(rig.session.currentSession)
        rig.clock.advance(by: .seconds(241))  // 59 s left: inside the 60 s margin
        #expect(try await owner.executeHandler("echo", payload: .integer(2)) == .integer(2))
        let second = try #require(rig.session.currentSession)
        #expect(second.sessionID != first.sessionID)
        #expect(rig.session.handshakeCount == 2)
        for n in Int64(3)...4 { #expect(try await owner.executeHandler("echo", payload: .integer(n)) == .integer(n)) }
        #expect(second.remainingRequests == 0)
        #expect(try await owner.executeHandler("echo", payload: .integer(5)) == .integer(5))
        #expect(rig.session.handshakeCount == 3)
        #expect(rig.vault.acceptedCount == 3)
        await rig.finish()
    }

    @Test("the session survives a token swap; concurrent callers share one handshake")
    func tokenSwapAndConcurrency() async throws {
        let rig = try await makeRig()
        defer { rig.server.cleanUp() }
        let owner = try rig.manager.ownerSpace()
        let results = try await withThrowingTaskGroup(of: JSONValue.self) { group in
            for n in 0..<8 { group.addTask { try await owner.executeHandler("echo", payload: .integer(Int64(n))) } }
            var all: [JSONValue] = []
            for try await value in group { all.append(value) }
            return all
        }
        #expect(Set(results.compactMap(\.int64Value)) == Set(Int64(0)..<8))
        #expect(rig.session.handshakeCount == 1)
        let before = try #require(rig.session.currentSession).sessionID
        await rig.manager.refresh()
        #expect(rig.manager.swapCount == 1)
        #expect(try await rig.manager.ownerSpace().executeHandler("echo", payload: .integer(9)) == .integer(9))
        #expect(try #require(rig.session.currentSession).sessionID == before)
        #expect(rig.session.handshakeCount == 1)
        await rig.finish()
    }

    @Test("a vault restart (new instance, new route, empty table): no responders, one new handshake, same request")
    func vaultRestart() async throws {
        var rig = try await makeRig()
        defer { rig.server.cleanUp() }
        let owner = try rig.manager.ownerSpace()
        #expect(try await owner.executeHandler("echo", payload: .integer(1)) == .integer(1))
        await rig.vault.stop()
        rig.vault = try await SealedFakeVault(
            client: try await sealedVaultClient(rig.setup, url: rig.server.url), identity: identity,
            clock: rig.clock.wall)
        #expect(try await owner.executeHandler("echo", payload: .integer(2)) == .integer(2))
        #expect(rig.session.handshakeCount == 2)
        #expect(try #require(rig.session.currentSession).sessionID.route == rig.vault.route)
        await rig.finish()
    }

    @Test("a vault key that is not pinned: one refresh; pinned after it, the session opens")
    func rotatedVaultKeyIsRefreshedOnce() async throws {
        let rotated = try VaultIdentityKey(kid: "vault-session-2", privateKey: P256.Signing.PrivateKey())
        let rig = try await makeRig(served: try .single(rotated), vaultIdentity: rotated)
        defer { rig.server.cleanUp() }
        #expect(try await rig.manager.ownerSpace().executeHandler("echo", payload: .integer(1)) == .integer(1))
        #expect(rig.keys.refreshCount == 1)
        await rig.finish()
    }

    @Test("a forged vault key is refused: unpinned after one refresh, or a pinned kid with another key")
    func forgedVaultKeyIsRefused() async throws {
        let forged = try VaultIdentityKey(kid: "vault-session-9", privateKey: P256.Signing.PrivateKey())
        let rig = try await makeRig(vaultIdentity: forged)
        defer { rig.server.cleanUp() }
        let owner = try rig.manager.ownerSpace()
        let unpinned = await #expect(throws: NatsConnectionError.self) { try await owner.executeHandler("echo") }
        #expect(unpinned?.code.rawValue == "vault_key_not_pinned")
        #expect((unpinned?.underlying as? SessionError)?.code == .vaultKeyNotPinned)
        #expect(rig.keys.refreshCount == 1)

        let impostor = try VaultIdentityKey(kid: identity.kid, privateKey: P256.Signing.PrivateKey())
        let second = try await makeRig(vaultIdentity: impostor)
        defer { second.server.cleanUp() }
        let refused = await #expect(throws: NatsConnectionError.self) {
            try await second.manager.ownerSpace().executeHandler("echo")
        }
        #expect(refused?.code.rawValue == "bad_vault_signature")
        #expect(second.keys.refreshCount == 0)
        #expect(second.session.currentSession == nil)
        await rig.finish()
        await second.finish()
    }

    static func allRights(_ setup: OperatorSetup) throws -> NATSAuth {
        let user = try setup.user()
        return .jwt(user.jwt, seed: user.seed)
    }
}
