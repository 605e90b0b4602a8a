// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import NATSClient
import Testing
import VettIDClient
import VettIDCrypto
import VettIDMessaging
import VettIDNats
import VettIDTestSupport

/// `MessageSpaceClient` over a vault-type token against a real nats-server: the vault's own MessageSpace
/// subjects work, and the app's do not.
@Suite(
    .enabled(if: NATSServerProcess.isAvailable, "nats-server is not installed: NATS layer integration tests skipped"),
    .timeLimit(.minutes(1)))
@MainActor
struct MessageSpaceClientIntegrationTests {
    let namespace = try! VaultNamespace(userGUID: testGUID)

    func manager(_ setup: OperatorSetup, _ server: NATSServerProcess, _ type: NatsClientType) -> NatsConnectionManager {
        NatsConnectionManager(
            configuration: .init(requestTimeout: .seconds(5), drainTimeout: .seconds(2)),
            provider: LocalSigningProvider(
                setup: setup, namespace: namespace, endpoint: server.url, lifetime: 3600, clientType: type),
            store: NatsCredentialStore(store: InMemorySecureStore()))
    }

    @Test("a vault token publishes and receives on its forOwner and call subjects")
    func vaultTokenUsesItsMessageSpace() async throws {
        let setup = try OperatorSetup()
        let server = try await NATSServerProcess(configuration: setup.configuration)
        defer { server.cleanUp() }
        let vault = manager(setup, server, .vault)
        await vault.connect()
        #expect(vault.state == .connected)
        let space = try vault.messageSpace()
        let forOwner = try space.subscribeForOwner()
        let calls = try space.subscribeToCalls()
        try await vault.connection.flush()

        try space.publish(forOwner: "greeting", Array("hello owner".utf8), messageID: "m1")
        try space.publish(call: "offer", Array("sdp".utf8))
        var owners = forOwner.makeAsyncIterator()
        let greeting = try #require(await owners.next())
        #expect(greeting.subject == namespace.forOwner("greeting"))
        #expect(greeting.payloadString == "hello owner")
        var callIterator = calls.makeAsyncIterator()
        #expect(await callIterator.next()?.subject == namespace.call("offer"))
        await vault.disconnect()
    }

    @Test("an app token cannot use the MessageSpace: nats-server refuses the subscription")
    func appTokenCannotSubscribeToTheMessageSpace() async throws {
        let setup = try OperatorSetup()
        let server = try await NATSServerProcess(configuration: setup.configuration)
        defer { server.cleanUp() }
        let credentials = try await LocalSigningProvider(
            setup: setup, namespace: namespace, endpoint: server.url, lifetime: 3600, clientType: .app
        ).issueCredentials()
        let client = try NATSClient(
            configuration: .init(servers: [server.url], auth: .jwt(credentials.jwt, seed: credentials.seed)))
        try await client.connect()
        let events = client.makeEventStream()
        _ = try client.subscribe(to: namespace.forOwnerWildcard)
        try await client.flush()
        var violation: NATSError?
        for await event in events {
            if case .error(let error) = event { violation = error }
            break
        }
        #expect(violation?.code == .permissionsViolation)
        await client.close()
    }
}
