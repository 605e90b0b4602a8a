// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import BenchSupport
import Logging
import VettIDClient
import VettIDCrypto
import VettIDMessaging
import VettIDNats

/// An app as the SDK runs it: a `NatsConnectionManager` whose credential provider is the device's `VaultService`
/// (an `app` token issued over HTTP), with a `VaultSessionChannel`. ``sealed`` runs `executeHandler` through the
/// channel (handshake, sealed envelopes, renewal after the session's 1,000 requests); ``plaintext`` is an
/// `OwnerSpaceClient` over the same connection without one (plaintext `execute` requests). Both are what
/// `executeHandler` does in an app, so their ratio is what sealing costs an app.
struct SDKApp: Sendable {
    let manager: NatsConnectionManager
    let channel: VaultSessionChannel
    /// `executeHandler` over the sealed session.
    let sealed: OwnerSpaceClient
    /// `executeHandler` in plaintext, on the same connection.
    let plaintext: OwnerSpaceClient

    /// Connects an app of `device`; no handshake yet (the first sealed request runs it).
    @MainActor
    static func connect(_ device: EnrolledDevice, logger: Logger) async throws -> SDKApp {
        let channel = VaultSessionChannel(
            dependencies: .init(vault: device.vault, deviceKeyStore: device.keyStore))
        let manager = NatsConnectionManager(
            configuration: .init(logger: logger), provider: device.vault,
            store: NatsCredentialStore(store: device.store), sealedSession: channel)
        await manager.connect()
        guard manager.state == .connected else { throw BenchFailure("an SDK app did not connect: \(manager.state)") }
        let sealed = try manager.ownerSpace()
        return SDKApp(
            manager: manager, channel: channel, sealed: sealed,
            plaintext: OwnerSpaceClient(connection: manager.connection, namespace: sealed.namespace))
    }

    /// The handshakes the channel ran so far.
    var handshakes: Int {
        channel.handshakeCount
    }

    /// `echo` of `payload` through `client` (``sealed`` or ``plaintext``); the answer must be `payload`.
    static func echo(_ client: OwnerSpaceClient, _ payload: JSONValue) async throws {
        let answer = try await client.executeHandler(.echo, payload: payload)
        guard answer == payload else { throw BenchFailure("echo answered \(answer) to \(payload)") }
    }

    func close() async {
        await manager.disconnect()
    }
}
