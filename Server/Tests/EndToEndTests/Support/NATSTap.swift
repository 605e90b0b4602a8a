// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import NATSClient
import NIOCore
import VettIDMessaging
import VettIDServer

/// What a NATS operator sees: a subscriber with rights to every subject of the application account, recording the
/// payload bytes it hears until ``stop()``.
struct NATSTap {
    let client: NATSClient
    let subscription: NATSSubscription
    let captured: Task<[UInt8], Never>

    /// Connects with credentials the live server's trust mints for `>` and starts recording.
    static func start(_ live: NATSLive) async throws -> NATSTap {
        let user = try live.server.components.natsTrust.userCredentials(
            name: "tap", permissions: NatsPermissionSet(publish: [], subscribe: [">"]),
            issuedAt: Int64(Date().timeIntervalSince1970), expiresAt: nil)
        let client = try NATSClient(
            configuration: .init(
                servers: [live.nats.url], auth: .jwt(user.jwt, seed: user.seed),
                tls: NATSTLSConfiguration(rootCertificatesPath: live.nats.caFile)))
        try await client.connect()
        let subscription = try client.subscribe(to: ">")
        try await client.flush()
        let captured = Task {
            var bytes: [UInt8] = []
            for await message in subscription { bytes += Array(message.payload.readableBytesView) }
            return bytes
        }
        return NATSTap(client: client, subscription: subscription, captured: captured)
    }

    /// Lets messages in flight arrive, stops recording and returns every payload byte heard.
    func stop() async -> [UInt8] {
        try? await Task.sleep(for: .milliseconds(200))
        subscription.unsubscribe()
        let bytes = await captured.value
        await client.close()
        return bytes
    }
}
