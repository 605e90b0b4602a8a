// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Logging
import NATSClient
import VettIDClient
import VettIDCore
import VettIDCrypto
import VettIDMessaging
import VettIDNats
import VettIDServer

/// The demo's messaging section: the device the vault section enrolled sets up its vault messaging (namespaces, a 24 h app token kept in
/// the SecureStore, a TLS connection to a local nats-server in operator mode), asks the backend's vault worker for
/// its status and runs a handler over a sealed session, keeps a secret and a profile in the vault
/// (``VaultDataDemo``); nats-server refuses a publish into another member's space and cuts off a revoked token.
@MainActor
struct MessagingDemo {
    let reporter: DemoReporter
    let logger: Logger

    func run(on backend: DemoBackend, device: EnrolledDemoDevice) async throws {
        let server = backend.server
        let vault = device.vault
        let deviceStore = device.deviceStore
        guard let nats = server.nats else { throw DemoFailure("the backend runs without nats-server") }
        reporter.section("vault messaging over NATS")
        let account = try await reporter.step("nats: account") {
            let account = try await vault.createNatsAccount()
            return (account, "\(account.ownerSpace) and \(account.messageSpace.prefix(24))… allocated")
        }
        let credentials = try await reporter.step("nats: token") {
            let credentials = try await vault.issueAppCredentials(deviceID: "vettid-demo")
            let hours = Int((credentials.expiresAt.timeIntervalSinceNow / 3600).rounded())
            return (
                credentials,
                "user JWT for a fresh NKey, signed by the application account, \(hours) h; publish \(credentials.permissions.publish.first ?? "")\(credentials.mailbox == nil ? "" : ", and pull + ack of this device's mailbox consumer only")"
            )
        }
        let session = VaultSessionChannel(
            dependencies: .init(vault: vault, deviceKeyStore: vault.deviceKeyStore))
        let manager = NatsConnectionManager(
            configuration: .init(tls: NATSTLSConfiguration(rootCertificatesPath: nats.caFile), logger: logger),
            provider: vault, store: NatsCredentialStore(store: deviceStore), sealedSession: session)
        vault.handlerLink.attach(manager)
        let mailbox = MailboxDemo(reporter: reporter)
        manager.mailboxHandler = mailbox.handler
        try await reporter.step("nats: connect over TLS") {
            await manager.connect(using: credentials)
            guard manager.state == .connected else { throw DemoFailure("the manager is \(manager.state)") }
            let stored = await NatsCredentialStore(store: deviceStore).load()
            guard stored?.tokenID == credentials.tokenID else { throw DemoFailure("the token was not kept") }
            return (
                (),
                "\(credentials.endpoint) (CA generated for this run), JWT + seed; the token is kept in the SecureStore"
            )
        }
        let owner = try manager.ownerSpace()
        try await reporter.step("nats: vault status request") {
            let status = try await owner.status()
            return (
                (),
                "\(status.vaultStatus), \(status.transactionKeysRemaining ?? 0) transaction keys; answered by \(status.workerID) (queue group vault-workers) on the app's forApp inbox"
            )
        }
        try await reporter.step("nats: sealed handler request") {
            let result = try await owner.executeHandler(.echo, payload: .object([("hello", .string("vault"))]))
            let types = try await owner.getEventTypes()
            let handshakes = session.handshakeCount
            return (
                (),
                "a sealed session (\(handshakes) handshake signed by the device key, vault key pinned at enrollment); echo → \(String(decoding: result.serialized(), as: UTF8.self)); handlers: \(types.map { $0.handlerID + ($0.sealedOnly ? "" : " (also plaintext)") }.joined(separator: ", "))"
            )
        }
        try await VaultDataDemo(reporter: reporter).run(device: device)
        try await reporter.step("nats: refuse other space") {
            let client = try await connect(nats, credentials)
            defer { Task { await client.close() } }
            let events = client.makeEventStream()
            let other = UUID().uuidString.lowercased()
            try client.publish("intrusion", to: "OwnerSpace.\(other).forVault.execute")
            try await client.flush()
            guard let error = await firstError(events, within: .seconds(5)), error.code == .permissionsViolation else {
                throw DemoFailure("nats-server did not refuse the publish")
            }
            return (
                (),
                "nats-server: \(error.code) for OwnerSpace.\(other.prefix(8))…: the JWT allows only \(account.ownerSpace.prefix(19))…"
            )
        }
        try await reporter.step("nats: revoke a token") {
            let lost = try await vault.createNatsToken(clientType: .app, deviceID: "lost-phone")
            let client = try await connect(nats, lost)
            let events = client.makeEventStream()
            let revoked = try await vault.revokeNatsToken(id: lost.tokenID)
            let cut = await firstError(events, within: .seconds(5))
            await client.close()
            guard cut != nil else { throw DemoFailure("the revoked client was not cut off") }
            do {
                let again = try await connect(nats, lost)
                await again.close()
                throw DemoFailure("nats-server accepted a revoked token")
            } catch let error as NATSError {
                guard manager.state == .connected else { throw DemoFailure("the device's own token was affected") }
                return (
                    (),
                    "\(revoked.status): account JWT pushed via the system account; the client was cut off (\(cut?.code.rawValue ?? "")) and reconnecting fails (\(error.code)); the device's token still works"
                )
            }
        }
        try await mailbox.run(manager: manager, device: device, baseURL: server.baseURL, apns: backend.apns)
        await manager.disconnect()
    }

    private func connect(_ nats: LocalNATSServer, _ credentials: NatsCredentials) async throws -> NATSClient {
        let client = try NATSClient(
            configuration: .init(
                servers: [nats.url], auth: .jwt(credentials.jwt, seed: credentials.seed), reconnect: .disabled,
                tls: NATSTLSConfiguration(rootCertificatesPath: nats.caFile)))
        try await client.connect()
        return client
    }

    /// The first error (asynchronous, or the one a disconnect or close carries) within `timeout`.
    private func firstError(_ events: AsyncStream<NATSEvent>, within timeout: Duration) async -> NATSError? {
        await withTaskGroup(of: NATSError?.self) { group in
            group.addTask {
                for await event in events {
                    switch event {
                    case .error(let error): return error
                    case .disconnected(let error?), .closed(let error?): return error
                    default: continue
                    }
                }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }
}
