// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Logging
import NATSClient
import Testing
import VettIDClientTestSupport
import VettIDCore
import VettIDTestSupport

@testable import VettIDClient
@testable import VettIDNats

@Suite("NATS connection manager (no server)", .timeLimit(.minutes(1)))
@MainActor
struct NatsConnectionManagerTests {
    func manager(_ provider: ScriptedNatsProvider, store: NatsCredentialStore, logs: LogCapture)
        -> NatsConnectionManager
    {
        NatsConnectionManager(
            configuration: .init(reconnect: .disabled, connectTimeout: .seconds(1), logger: logs.logger(level: .trace)),
            provider: provider,
            store: store
        )
    }

    @Test("a provider that refuses: error state, nothing to use")
    func providerRefuses() async throws {
        let provider = ScriptedNatsProvider([
            .failure(APIError(code: .natsNotConfigured, status: 503, description: "no nats"))
        ])
        let manager = manager(provider, store: NatsCredentialStore(store: InMemorySecureStore()), logs: LogCapture())
        #expect(throws: NatsConnectionError.self) { try manager.ownerSpace() }
        await manager.connect()
        #expect(manager.state == .error("No NATS credentials: nats_not_configured: no nats"))
        #expect(await provider.calls == 1)
        #expect(throws: NatsConnectionError.self) { try manager.connection.publish([1], to: "x") }
    }

    @Test("an unreachable endpoint: error state; the logs name the token but never the JWT, seed or creds")
    func unreachableAndRedacted() async throws {
        let port = 1  // nothing listens on port 1 of the loopback interface
        let credentials = sampleNatsCredentials(
            tokenID: "tok-log", issued: Date(), lifetime: 24 * 3600, endpoint: "nats://127.0.0.1:\(port)")
        let provider = ScriptedNatsProvider([.success(credentials)])
        let store = NatsCredentialStore(store: InMemorySecureStore())
        let logs = LogCapture()
        let manager = manager(provider, store: store, logs: logs)
        let updates = manager.stateUpdates()
        await manager.connect()
        guard case .error(let message) = manager.state else {
            Issue.record("expected an error, got \(manager.state)")
            return
        }
        #expect(message.contains("Cannot reach the messaging server"))
        // The issued credentials were stored before connecting.
        #expect(await store.load()?.tokenID == "tok-log")
        var iterator = updates.makeAsyncIterator()
        #expect(await iterator.next() == .connecting)
        #expect(await iterator.next() == .error(message))

        let text = logs.text
        #expect(text.contains("tok-log"))
        for secret in [credentials.seed, credentials.jwt, "secret-jwt-body", credentials.creds] {
            #expect(!text.contains(secret), "the manager logged a secret")
        }
    }
}
