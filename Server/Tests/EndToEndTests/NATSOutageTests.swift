// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import NATSClient
import Testing
import VettIDClient
import VettIDCore
import VettIDCrypto
import VettIDMessaging
import VettIDNats
import VettIDServer
import VettIDTestSupport

/// nats-server stopped for a while under messaging load: the SDK and the backend's workers come back by
/// themselves, and a revocation recorded while nats-server was down is enforced once it is back.
extension NATSSDKLiveTests {
    // MARK: nats-server outage under load

    @Test @MainActor func aNatsServerOutageUnderLoadEndsWithEverythingBackAndTheRevocationMadeMeanwhileEnforced()
        async throws
    {
        try await NATSLive.with(workers: 2, configure: Self.configure) { live in
            let log = LogCapture()
            let device = try await Self.messagingDevice(live, email: "nats-sdk-outage@example.com", log: log)
            let retrying = NATSReconnectPolicy(maxAttemptsPerServer: nil, wait: .milliseconds(200))
            let manager = Self.manager(live, device, log: log, reconnect: retrying)
            await manager.connect()
            #expect(manager.state == .connected)
            let tokenID = try #require(manager.tokenID)

            // The member's lost phone: a second app token on a plain client that keeps trying to reconnect.
            let lost = try await device.vault.createNatsToken(clientType: .app, deviceID: "lost-phone")
            let lostClient = try NATSClient(
                configuration: NATSClient.Configuration(
                    servers: [lost.endpoint], auth: .jwt(lost.jwt, seed: lost.seed), reconnect: retrying))
            try await lostClient.connect()

            // Load: echo requests to the backend's workers back to back, each outcome counted.
            let vault = try manager.ownerSpace()
            let load = LoadCounter()
            let loadTask = Task { @MainActor in
                var number = 0
                while !Task.isCancelled {
                    number += 1
                    let answer = try? await vault.executeHandler(
                        "echo", payload: .string("\(number)"), timeout: .seconds(1))
                    if answer == .string("\(number)") {
                        load.answered += 1
                    } else {
                        load.failed += 1
                        try? await Task.sleep(for: .milliseconds(50))
                    }
                }
            }
            try #require(await eventually { load.answered >= 20 }, "20 requests were not answered before the outage")

            // nats-server goes away.
            live.nats.stop()
            try #require(await eventually { manager.state == .connecting }, "the manager did not see the outage")
            #expect(!lostClient.isConnected)
            let answeredBefore = load.answered

            // The lost phone is revoked meanwhile: recorded at once, the caller told nats-server did not hear it.
            let refused = await Self.apiError { () async throws(APIError) in
                try await device.vault.revokeNatsToken(id: lost.tokenID)
            }
            #expect(refused?.code == .natsUnavailable, "\(String(describing: refused))")
            #expect(refused?.status == 503)
            let active = try await device.vault.getNatsStatus().activeTokens.map(\.tokenID)
            #expect(active == [tokenID], "the revocation is recorded although nats-server did not hear it")
            try await Task.sleep(for: .seconds(2))  // the outage lasts, the load keeps trying
            #expect(load.failed > 0, "requests failed during the outage")
            #expect(load.answered <= answeredBefore + 1, "nothing is answered while nats-server is down")

            // It comes back on the same port with its old resolver directory, in which the lost phone's key is
            // not yet revoked: the server's publisher pushes the account again as soon as it reconnects.
            let restarted = try await live.nats.restarted()
            defer { restarted.stop() }

            // The revocation is enforced: the lost phone's credentials are refused from then on.
            let enforced = try await eventually(timeout: .seconds(20), poll: .milliseconds(50)) {
                let probe = try NATSClient(
                    configuration: NATSClient.Configuration(
                        servers: [lost.endpoint], auth: .jwt(lost.jwt, seed: lost.seed), reconnect: .disabled))
                defer { Task { await probe.close() } }
                do {
                    try await probe.connect()
                    return false
                } catch let error as NATSError {
                    return error.code == .authorizationViolation || error.code == .authenticationRevoked
                }
            }
            try #require(enforced, "the lost phone's credentials were not refused within 20 s of the restart")
            try #require(await eventually { !lostClient.isConnected }, "the lost phone's client was not put out")

            // The SDK and the workers resume on the same token; the load is answered again.
            try #require(
                await eventually(timeout: .seconds(20)) { manager.state == .connected },
                "the manager did not reconnect within 20 s")
            let answeredAfterRestart = load.answered
            try #require(
                await eventually(timeout: .seconds(20)) { load.answered >= answeredAfterRestart + 20 },
                "fewer than 20 requests were answered within 20 s after the outage")
            #expect(manager.tokenID == tokenID, "an outage needs no new token")
            #expect(manager.reauthenticationCount == 0)
            #expect(!lostClient.isConnected, "the lost phone stayed out")
            loadTask.cancel()
            await loadTask.value

            // The revoked key is in the account JWT nats-server now holds (read back over the system account).
            let accountJWT = try NATSJWT.decode(
                try await live.server.components.natsAccountJWT.current(), as: NATSAccountClaims.self)
            let lostKey = try NATSJWT.decode(lost.jwt, as: NATSUserClaims.self).subject
            #expect(accountJWT.nats.revocations[lostKey] != nil)

            await lostClient.close()
            await manager.disconnect()
            Self.expectNoSecrets(of: [lost], in: log.lines)
        }
    }

    /// Echo requests answered and failed, counted on the main actor.
    @MainActor
    final class LoadCounter {
        var answered = 0
        var failed = 0
    }
}
