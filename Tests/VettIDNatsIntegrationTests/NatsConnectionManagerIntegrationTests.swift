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

@Suite(
    .enabled(if: NATSServerProcess.isAvailable, "nats-server is not installed: NATS layer integration tests skipped"))
@MainActor
struct NatsConnectionManagerIntegrationTests {
    let namespace = try! VaultNamespace(userGUID: testGUID)

    func makeManager(
        provider: LocalSigningProvider,
        store: NatsCredentialStore = NatsCredentialStore(store: InMemorySecureStore()),
        timing: NatsConnectionManagerStateMachine.Timing = .init(),
        tls: NATSTLSConfiguration = NATSTLSConfiguration(),
        logs: LogCapture = LogCapture()
    ) -> NatsConnectionManager {
        NatsConnectionManager(
            configuration: .init(
                timing: timing, tls: tls,
                reconnect: NATSReconnectPolicy(
                    maxAttemptsPerServer: nil, wait: .milliseconds(100), jitter: .milliseconds(10)),
                requestTimeout: .seconds(5), drainTimeout: .seconds(3), logger: logs.logger()),
            provider: provider,
            store: store
        )
    }

    @Test("connects with locally signed app credentials; request/reply to the vault stays inside the app permissions")
    func connectAndRequestReply() async throws {
        let setup = try OperatorSetup()
        let server = try await NATSServerProcess(configuration: setup.configuration)
        defer { server.cleanUp() }
        let vault = try await FakeVault(client: try await workerClient(setup, url: server.url))
        defer { Task { await vault.client.close() } }
        let provider = LocalSigningProvider(setup: setup, namespace: namespace, endpoint: server.url, lifetime: 3600)
        let store = NatsCredentialStore(store: InMemorySecureStore())
        let logs = LogCapture()
        let manager = makeManager(provider: provider, store: store, timing: .init(refreshWindow: 60), logs: logs)
        let recorder = StateRecorder(manager)

        await manager.connect()
        #expect(manager.state == .connected)
        #expect(manager.namespace == namespace)
        #expect(provider.issuedCount == 1)
        let stored = try #require(await store.load())
        #expect(stored.tokenID == manager.tokenID)
        #expect(await recorder.wait { $0 == [.connecting, .connected] })

        let ownerSpace = try manager.ownerSpace()
        let status = try await ownerSpace.status()
        #expect(status.userGUID == testGUID)
        #expect(status.workerID == "fake-1")
        let echoed = try await ownerSpace.executeHandler("echo", payload: .object([("n", .integer(7))]))
        #expect(echoed == .object([("n", .integer(7))]))
        await #expect(throws: NatsConnectionError.self) { try await ownerSpace.executeHandler("missing") }
        do {
            _ = try await ownerSpace.executeHandler("missing")
        } catch {
            #expect(error.code == .vaultError)
            #expect(error.vaultError?.code == .unknownHandler)
        }
        #expect(try await ownerSpace.getEventTypes() == [VaultEventType(handlerID: "echo", description: "Echoes")])

        // Fire-and-forget: the answer arrives on forApp.status.response; the inbox traffic and junk are skipped.
        let responses = try ownerSpace.subscribeToVaultResponses()
        try await manager.connection.flush()
        try vault.client.publish("not json", to: namespace.response(to: "junk"))
        try ownerSpace.sendToVault(.statusRequest(id: "fire-1", timestamp: 1))
        var iterator = responses.makeAsyncIterator()
        let response = try #require(await iterator.next())
        #expect(response.requestID == "fire-1")
        #expect(responses.undecodableCount == 1)

        // A second manager over the same store reuses the stored, still fresh, credentials.
        let second = makeManager(provider: provider, store: store, timing: .init(refreshWindow: 60))
        await second.connect()
        #expect(second.state == .connected)
        #expect(second.tokenID == stored.tokenID)
        #expect(provider.issuedCount == 1)
        await second.disconnect()

        await manager.disconnect()
        #expect(manager.state == .disconnected)
        #expect(await recorder.wait { $0.last == .disconnected })
        recorder.stop()
        // Nothing secret reached the logs.
        let text = logs.text
        #expect(text.contains(stored.tokenID))
        for secret in [stored.seed, stored.jwt] + provider.issuedSeeds {
            #expect(!text.contains(secret), "the manager logged a secret")
        }
    }

    @Test("a 4 s token is swapped before expiry with no message lost or duplicated in either direction")
    func tokenSwapUnderLoad() async throws {
        let setup = try OperatorSetup()
        let server = try await NATSServerProcess(configuration: setup.configuration)
        defer { server.cleanUp() }
        let publisher = try await workerClient(setup, url: server.url)
        let vault = try await FakeVault(client: try await workerClient(setup, url: server.url))
        defer {
            Task {
                await publisher.close(); await vault.client.close()
            }
        }
        let provider = LocalSigningProvider(setup: setup, namespace: namespace, endpoint: server.url, lifetime: 4)
        let manager = makeManager(
            provider: provider, timing: .init(refreshWindow: 3, minimumRefreshDelay: 0.3, retryInterval: 0.5))
        await manager.connect()
        #expect(manager.state == .connected)
        let firstToken = manager.tokenID

        let subject = "\(namespace.ownerSpace).forApp.stream"
        let subscription = try manager.connection.subscribe(to: subject)
        try await manager.connection.flush()
        let ownerSpace = try manager.ownerSpace()

        let total = 1200
        let collector = Task { await collect(subscription, count: total, timeout: .seconds(30)) }
        // Numbered streams for ~6 s: vault → app (with Nats-Msg-Id) and app → vault (fire-and-forget).
        var appSendFailures = 0
        for number in 0..<total {
            var headers = NATSHeaders()
            headers.append(name: NatsMessageDeduplicator.messageIDHeader, value: "m-\(number)")
            try publisher.publish("\(number)", to: subject, headers: headers)
            do {
                try ownerSpace.sendToVault(
                    .executeHandler(
                        id: "req-\(number)", handlerID: "count", payload: .integer(Int64(number)), timestamp: 1))
            } catch {
                appSendFailures += 1
            }
            try await Task.sleep(for: .milliseconds(5))
        }
        try await publisher.flush()
        let received = await collector.value
        let numbers = received.map { Int($0.payloadString) ?? -1 }
        #expect(numbers.count == total, "lost or duplicated messages: got \(numbers.count) of \(total)")
        #expect(Set(numbers) == Set(0..<total))
        #expect(manager.swapCount >= 2, "only \(manager.swapCount) swaps")
        #expect(manager.reauthenticationCount == 0)
        #expect(manager.tokenID != firstToken)
        #expect(manager.state == .connected)
        #expect(appSendFailures == 0)

        // Every app publish reached the vault exactly once (each went out on one connection only).
        try await manager.connection.flush()
        try await vault.client.flush()
        let executions = vault.executions
        #expect(executions.count == total, "the vault got \(executions.count) of \(total) app messages")
        #expect(Set(executions) == Set((0..<total).map { "\($0)" }))
        await manager.disconnect()
    }

    @Test("a nats-server restart: the manager shows connecting, reconnects, and subscriptions keep delivering")
    func serverRestart() async throws {
        let setup = try OperatorSetup()
        var server = try await NATSServerProcess(configuration: setup.configuration)
        defer { server.cleanUp() }
        let provider = LocalSigningProvider(setup: setup, namespace: namespace, endpoint: server.url, lifetime: 3600)
        let manager = makeManager(provider: provider, timing: .init(refreshWindow: 60))
        let recorder = StateRecorder(manager)
        await manager.connect()
        let responses = try manager.ownerSpace().subscribeToVaultResponses()
        try await manager.connection.flush()
        var iterator = responses.makeAsyncIterator()

        let before = try await workerClient(setup, url: server.url)
        try before.publish(
            VaultResponse.eventTypes(requestID: "before", types: [], timestamp: 1).encoded(),
            to: namespace.response(to: "eventTypes"))
        #expect(await iterator.next()?.requestID == "before")
        await before.close()

        server.stop()
        #expect(await recorder.wait { $0.contains(.connecting) && $0.last == .connecting })
        server = try await server.restarted()
        #expect(await recorder.wait(timeout: .seconds(15)) { $0.last == .connected && $0.count >= 4 })
        #expect(recorder.states == [.connecting, .connected, .connecting, .connected])
        #expect(provider.issuedCount == 1)

        try await manager.connection.flush()
        let after = try await workerClient(setup, url: server.url)
        try after.publish(
            VaultResponse.eventTypes(requestID: "after", types: [], timestamp: 1).encoded(),
            to: namespace.response(to: "eventTypes"))
        #expect(await iterator.next()?.requestID == "after")
        await after.close()
        await manager.disconnect()
        recorder.stop()
    }

    @Test("a tls:// endpoint with a custom CA")
    func tlsEndpoint() async throws {
        guard TestCertificates.opensslAvailable else { return }
        let certificates = try TestCertificates()
        defer { certificates.cleanUp() }
        let setup = try OperatorSetup()
        let server = try await NATSServerProcess(
            configuration: setup.configuration + "\n" + certificates.serverConfiguration)
        defer { server.cleanUp() }
        let tls = NATSTLSConfiguration(rootCertificatesPath: certificates.ca)
        let vault = try await FakeVault(client: try await workerClient(setup, url: server.tlsURL, tls: tls))
        defer { Task { await vault.client.close() } }
        let provider = LocalSigningProvider(setup: setup, namespace: namespace, endpoint: server.tlsURL, lifetime: 3600)

        let manager = makeManager(provider: provider, timing: .init(refreshWindow: 60), tls: tls)
        await manager.connect()
        #expect(manager.state == .connected)
        #expect(try await manager.ownerSpace().status().vaultStatus == "active")
        await manager.disconnect()

        // Without the CA the server is not trusted: the manager ends in an error.
        let untrusting = makeManager(provider: provider, timing: .init(refreshWindow: 60))
        await untrusting.connect()
        guard case .error = untrusting.state else {
            Issue.record("connected to a TLS server without trusting its CA: \(untrusting.state)")
            return
        }
    }

    @Test("nats-server cuts off an expired token: new credentials are fetched and subscriptions continue")
    func expiredTokenIsReplaced() async throws {
        let setup = try OperatorSetup()
        let server = try await NATSServerProcess(configuration: setup.configuration)
        defer { server.cleanUp() }
        let provider = LocalSigningProvider(setup: setup, namespace: namespace, endpoint: server.url, lifetime: 2)
        // No proactive refresh: the window is zero and the first refresh is a minute away.
        let manager = makeManager(provider: provider, timing: .init(refreshWindow: 0, minimumRefreshDelay: 60))
        let recorder = StateRecorder(manager)
        await manager.connect()
        let subject = "\(namespace.ownerSpace).forApp.events"
        let subscription = try manager.connection.subscribe(to: subject)
        try await manager.connection.flush()

        #expect(await recorder.wait(timeout: .seconds(8)) { $0.filter { $0 == .connected }.count >= 2 })
        #expect(manager.reauthenticationCount >= 1)
        #expect(provider.issuedCount >= 2)
        #expect(manager.state == .connected)

        let publisher = try await workerClient(setup, url: server.url)
        try await manager.connection.flush()
        try publisher.publish("still here", to: subject)
        let messages = await collect(subscription, count: 1, timeout: .seconds(5))
        #expect(messages.first?.payloadString == "still here")
        await publisher.close()
        await manager.disconnect()
        recorder.stop()
    }

    @Test("a revoked token with a provider that refuses ends in the error state")
    func revokedTokenEndsInError() async throws {
        let setup = try OperatorSetup()
        let server = try await NATSServerProcess(configuration: setup.configuration)
        defer { server.cleanUp() }
        let provider = LocalSigningProvider(setup: setup, namespace: namespace, endpoint: server.url, lifetime: 3600)
        let manager = makeManager(provider: provider, timing: .init(refreshWindow: 60))
        let recorder = StateRecorder(manager)
        await manager.connect()
        #expect(manager.state == .connected)

        provider.refuse()
        var claims = setup.accountClaims
        for key in provider.issuedPublicKeys { claims.revocations[key] = Int64(Date().timeIntervalSince1970) + 1 }
        try await setup.pushAccountUpdate(to: server.url, claims: claims)

        #expect(await recorder.wait(timeout: .seconds(10)) { if case .error = $0.last { true } else { false } })
        guard case .error(let message) = manager.state else {
            Issue.record("expected the error state, got \(manager.state)")
            return
        }
        #expect(message.contains("No NATS credentials"))
        #expect(throws: NatsConnectionError.self) {
            try manager.ownerSpace().sendToVault(.statusRequest(id: "x", timestamp: 1))
        }
        recorder.stop()
    }
}
