// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import NATSClient
import NIOCore
import Testing
import VettIDClient
import VettIDCrypto
import VettIDMessaging
import VettIDNats
import VettIDTestSupport

/// Issues app (or vault) tokens signed locally by the test operator's application account, with exactly the
/// permissions the backend grants (`NatsPermissionSet.forClient`).
final class LocalSigningProvider: NatsCredentialProvider, Sendable {
    struct Refused: Error {}

    let setup: OperatorSetup
    let namespace: VaultNamespace
    let endpoint: String
    let lifetime: TimeInterval
    let clientType: NatsClientType
    private struct Issued {
        var refusing = false
        var publicKeys: [String] = []
        var seeds: [String] = []
    }
    private let issued = LockedValue(Issued())

    init(
        setup: OperatorSetup, namespace: VaultNamespace, endpoint: String, lifetime: TimeInterval,
        clientType: NatsClientType = .app
    ) {
        self.setup = setup
        self.namespace = namespace
        self.endpoint = endpoint
        self.lifetime = lifetime
        self.clientType = clientType
    }

    /// Refuse every later request (a revoked member whose session cannot be renewed).
    func refuse() { issued.withLock { $0.refusing = true } }
    var issuedCount: Int { issued.withLock { $0.publicKeys.count } }
    var issuedPublicKeys: [String] { issued.withLock { $0.publicKeys } }
    var issuedSeeds: [String] { issued.withLock { $0.seeds } }

    func issueCredentials() async throws -> NatsCredentials {
        if issued.withLock({ $0.refusing }) { throw Refused() }
        let permissions = NatsPermissionSet.forClient(clientType, in: namespace)
        let expiresAt = Date().addingTimeInterval(lifetime)
        let user = try setup.userWithKey(
            NATSUserClaims(
                permissions: NATSClaimPermissions(
                    publish: NATSPermission(allow: permissions.publish),
                    subscribe: NATSPermission(allow: permissions.subscribe)
                )
            ),
            expires: Int64(expiresAt.timeIntervalSince1970)
        )
        issued.withLock {
            $0.publicKeys.append(user.publicKey)
            $0.seeds.append(user.seed)
        }
        return NatsCredentials(
            tokenID: "tok-\(UUID().uuidString.prefix(8).lowercased())",
            jwt: user.jwt,
            seed: user.seed,
            creds: NATSCredsFile(jwt: user.jwt, seed: user.seed).formatted,
            endpoint: endpoint,
            // nats-server expires at the whole second of the JWT's exp.
            expiresAt: Date(timeIntervalSince1970: TimeInterval(Int64(expiresAt.timeIntervalSince1970))),
            permissions: permissions,
            namespace: namespace,
            clientType: clientType
        )
    }
}

/// A NATS user of the application account with the vault worker's permissions.
func workerClient(_ setup: OperatorSetup, url: String, tls: NATSTLSConfiguration = NATSTLSConfiguration()) async throws
    -> NATSClient
{
    let worker = NatsPermissionSet.worker
    let user = try setup.user(
        NATSUserClaims(
            permissions: NATSClaimPermissions(
                publish: NATSPermission(allow: worker.publish),
                subscribe: NATSPermission(allow: worker.subscribe)
            )
        )
    )
    let client = try NATSClient(
        configuration: NATSClient.Configuration(
            servers: [url], name: "fake-vault", auth: .jwt(user.jwt, seed: user.seed),
            reconnect: NATSReconnectPolicy(maxAttemptsPerServer: nil, wait: .milliseconds(100)), tls: tls))
    try await client.connect()
    return client
}

/// A fake vault worker: answers status, execute (`echo` returns its payload) and eventTypes requests on the
/// reply subject (checked with `isReplySubject`) or on `forApp.{type}.response`; counts `count` requests.
final class FakeVault: Sendable {
    let client: NATSClient
    private let received = LockedValue<[String]>([])
    private let task = LockedValue<Task<Void, Never>?>(nil)

    /// Subscribes, and returns once the server has the subscription (a request sent right after finds it).
    init(client: NATSClient) async throws {
        self.client = client
        let subscription = try client.subscribe(to: VaultNamespace.allForVault, queue: VaultNamespace.workerQueueGroup)
        let answering = Task { [weak self] in
            for await message in subscription {
                self?.answer(message)
            }
        }
        task.withLock { $0 = answering }
        try await client.flush()
    }

    deinit { task.withLock { $0?.cancel() } }

    /// Payloads (`handler_id` + payload text) of execute requests, in arrival order.
    var executions: [String] { received.withLock { $0 } }

    private func answer(_ message: NATSMessage) {
        guard let (namespace, _) = VaultNamespace.parseRequestSubject(message.subject),
            let request = try? VaultMessage.decode(message.payload.readableBytesView)
        else { return }
        let response: VaultResponse
        switch request {
        case .executeHandler(let id, let handlerID, let payload, _):
            received.withLock { $0.append(String(decoding: payload.serialized(), as: UTF8.self)) }
            if handlerID == "echo" || handlerID == "count" {
                response = .handlerResult(requestID: id, handlerID: handlerID, result: .success(payload), timestamp: 1)
            } else {
                response = .handlerResult(
                    requestID: id, handlerID: handlerID,
                    result: .failure(VaultMessageError(.unknownHandler, "no handler \(handlerID)")), timestamp: 1)
            }
        case .statusRequest(let id, _):
            response = .statusResponse(
                requestID: id,
                status: VaultWorkerStatus(
                    vaultStatus: "active", userGUID: namespace.userGUID, transactionKeysRemaining: 5,
                    workerID: "fake-1",
                    handlers: ["echo"]),
                timestamp: 1)
        case .eventTypesRequest(let id, _):
            response = .eventTypes(
                requestID: id, types: [VaultEventType(handlerID: "echo", description: "Echoes")], timestamp: 1)
        }
        if case .executeHandler(_, "count", _, _) = request, message.replyTo == nil { return }
        let target =
            message.replyTo.flatMap { namespace.isReplySubject($0) ? $0 : nil }
            ?? namespace.response(to: request.type.rawValue)
        try? client.publish(response.encoded(), to: target)
    }
}

/// Records a manager's state changes.
@MainActor
final class StateRecorder {
    private(set) var states: [NatsConnectionState] = []
    private var task: Task<Void, Never>?

    init(_ manager: NatsConnectionManager) {
        let updates = manager.stateUpdates()
        task = Task { @MainActor [weak self] in
            for await state in updates { self?.states.append(state) }
        }
    }

    /// Waits (polling the recorded list, bounded by `timeout`) until `predicate` holds.
    func wait(timeout: Duration = .seconds(10), until predicate: ([NatsConnectionState]) -> Bool) async -> Bool {
        await eventually(timeout: timeout) { predicate(states) }
    }

    func stop() { task?.cancel() }
}

/// Collects messages from a managed subscription until `count` arrived or `timeout` passed.
func collect(_ subscription: NatsManagedSubscription, count: Int, timeout: Duration) async -> [NATSMessage] {
    await withTaskGroup(of: [NATSMessage].self) { group in
        let box = MessageBox()
        group.addTask {
            for await message in subscription {
                box.append(message)
                if box.count >= count { break }
            }
            return box.all
        }
        group.addTask {
            try? await Task.sleep(for: timeout)
            return box.all
        }
        let first = await group.next() ?? []
        group.cancelAll()
        return first
    }
}

final class MessageBox: Sendable {
    private let messages = LockedValue<[NATSMessage]>([])
    func append(_ message: NATSMessage) { messages.withLock { $0.append(message) } }
    var count: Int { messages.withLock { $0.count } }
    var all: [NATSMessage] { messages.withLock { $0 } }
}

let testGUID = "9f1c2e4a-0000-4000-8000-00000000abcd"
