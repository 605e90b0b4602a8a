// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import NATSClient
import NIOCore
import VettIDClient
import VettIDCore
import VettIDCrypto
import VettIDMessaging
import VettIDNats
import VettIDSession
import VettIDTestSupport

/// A vault instance answering sealed sessions with VettIDSession's `SessionResponder` and `SealedSessionTable`: inits
/// on `OwnerSpace.*.forVault.session`, envelopes on `OwnerSpace.*.forVault.sealed.{its route}`. Its handler `echo`
/// returns the request's body; any other is `unknown_handler`.
final class SealedFakeVault: Sendable {
    let client: NATSClient
    let route: SessionRoute
    let table: SealedSessionTable
    let responder: SessionResponder
    let identity: VaultIdentityKey
    private let accepted = LockedValue(0)
    private let tasks = LockedValue<[Task<Void, Never>]>([])

    /// Subscribes, and returns once the server has the subscriptions.
    init(
        client: NATSClient, identity: VaultIdentityKey, clock: any WallClock, lifetime: Duration = .seconds(3600),
        maxMessages: UInt32 = 1000
    ) async throws {
        self.client = client
        self.identity = identity
        let route = SessionRoute.random(SystemSessionRandom())
        self.route = route
        self.responder = SessionResponder(
            configuration: .init(lifetime: lifetime, maxMessages: maxMessages, route: route),
            nonces: InMemoryHandshakeNonceCache(), clock: clock)
        self.table = SealedSessionTable(clock: clock)
        let inits = try client.subscribe(to: "OwnerSpace.*.forVault.session", queue: VaultNamespace.workerQueueGroup)
        let envelopes = try client.subscribe(
            to: "OwnerSpace.*.forVault.sealed.\(route.subjectToken)", queue: VaultNamespace.workerQueueGroup)
        let answering = [
            Task { [weak self] in
                for await message in inits { await self?.answerInit(message) }
            },
            Task { [weak self] in
                for await message in envelopes { await self?.answerEnvelope(message) }
            },
        ]
        tasks.withLock { $0 = answering }
        try await client.flush()
    }

    deinit { tasks.withLock { for task in $0 { task.cancel() } } }

    /// Handshakes accepted.
    var acceptedCount: Int { accepted.withLock { $0 } }

    /// Stops answering (a vault instance that went away).
    func stop() async {
        tasks.withLock { for task in $0 { task.cancel() } }
        await client.close()
    }

    private func answerInit(_ message: NATSMessage) async {
        guard let (namespace, _) = VaultNamespace.parseRequestSubject(message.subject),
            let reply = message.replyTo, namespace.isReplySubject(reply)
        else { return }
        let answer: [UInt8]
        do throws(SessionError) {
            let checked = try responder.check(Array(message.payload.readableBytesView), memberGUID: namespace.userGUID)
            let acceptance = try responder.accept(checked, identity: identity)
            table.insert(acceptance.session)
            accepted.withLock { $0 += 1 }
            answer = acceptance.responseBytes
        } catch {
            answer = SessionRefusal(error).bytes
        }
        try? client.publish(answer, to: reply)
    }

    private func answerEnvelope(_ message: NATSMessage) async {
        guard let (namespace, _) = VaultNamespace.parseRequestSubject(message.subject),
            let reply = message.replyTo, namespace.isReplySubject(reply)
        else { return }
        let answer: [UInt8]
        switch table.open(Array(message.payload.readableBytesView), memberGUID: namespace.userGUID) {
        case .admitted(let admitted):
            if admitted.request.handler == "echo" {
                guard let sealed = try? admitted.sealResult(admitted.request.body) else { return }
                answer = sealed
            } else {
                let error = SessionHandlerError(.init(rawValue: "unknown_handler"), "no handler here")
                guard let sealed = try? admitted.sealFailure(error) else { return }
                answer = sealed
            }
        case .refused(_, let reply, _):
            answer = reply
        }
        try? client.publish(answer, to: reply)
    }
}

/// A NATS user of the application account with the permissions a sealed-session vault worker needs.
func sealedVaultClient(_ setup: OperatorSetup, url: String) async throws -> NATSClient {
    let user = try setup.user(
        NATSUserClaims(
            permissions: NATSClaimPermissions(
                publish: NATSPermission(allow: ["OwnerSpace.*.forApp.>"]),
                subscribe: NATSPermission(allow: [
                    "OwnerSpace.*.forVault.session \(VaultNamespace.workerQueueGroup)",
                    "OwnerSpace.*.forVault.sealed.* \(VaultNamespace.workerQueueGroup)",
                ])
            )
        )
    )
    let client = try NATSClient(
        configuration: NATSClient.Configuration(
            servers: [url], name: "sealed-vault", auth: .jwt(user.jwt, seed: user.seed),
            reconnect: NATSReconnectPolicy(maxAttemptsPerServer: nil, wait: .milliseconds(100))))
    try await client.connect()
    return client
}

/// The pinned vault keys a test app reads, and what a refresh over the "API" returns.
final class PinnedKeysSource: Sendable {
    private struct State {
        var pinned: PinnedVaultKeys
        var served: PinnedVaultKeys
        var refreshes = 0
    }
    private let state: LockedValue<State>

    init(pinned: PinnedVaultKeys, served: PinnedVaultKeys? = nil) {
        state = LockedValue(State(pinned: pinned, served: served ?? pinned))
    }

    var refreshCount: Int { state.withLock { $0.refreshes } }

    func dependencies(signer: any DPoPSigner) -> VaultSessionChannel.Dependencies {
        VaultSessionChannel.Dependencies(
            deviceSigner: { signer },
            pinnedKeys: { self.state.withLock { $0.pinned } },
            refreshPinnedKeys: {
                self.state.withLock { state in
                    state.refreshes += 1
                    state.pinned = state.served
                    return state.pinned
                }
            })
    }
}

extension PinnedVaultKeys {
    /// A set of one key.
    static func single(_ identity: VaultIdentityKey) throws -> PinnedVaultKeys {
        try PinnedVaultKeys(
            keys: [try PinnedVaultKeys.Key(kid: identity.kid, publicKey: identity.publicKey)],
            currentKID: identity.kid)
    }
}
