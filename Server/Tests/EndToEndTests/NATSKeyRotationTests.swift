// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import NATSClient
import Testing
import VettIDAPI
import VettIDCrypto
import VettIDServer
import VettIDTestSupport

/// Rotating the NATS application account's signing key against a real nats-server: no issued user JWT stops
/// working when a new key starts signing, and a removed key's users are cut off and stay out.
@Suite(.enabled(if: NATSLive.isAvailable, "nats-server is not installed"), .timeLimit(.minutes(3)))
struct NATSKeyRotationTests {
    static func issuer(of token: Components.Schemas.NatsToken) throws -> (issuer: String, issuerAccount: String?) {
        let claims = try NATSJWT.decode(token.natsJwt, as: NATSUserClaims.self)
        return (claims.issuer, claims.nats.issuerAccount)
    }

    static func rotate(_ live: NATSLive) async throws {
        let now = Int64(Date().timeIntervalSince1970)
        try KeyRingFile.update(dataDirectory: live.server.components.configuration.dataDirectory) { rings in
            rings[.natsSigning] = try rings[.natsSigning].rotated(
                secret: Array(repeating: UInt8(rings[.natsSigning].generations.count), count: 32), now: now,
                activationDelay: 0)
        }
        try await #require(live.server.components.keyRingReloader).reloadNow()
    }

    @Test @MainActor func usersOfEveryHeldGenerationConnectAndARemovedOnesAreCutOff() async throws {
        try await NATSLive.with { live in
            let account = live.server.components.natsTrust.applicationAccount.publicKey
            let member = try await live.member("nats-rotation@example.com")
            let original = try await member.token(.app, deviceID: "before")
            #expect(try Self.issuer(of: original) == (account, nil), "generation 1: the account key itself")

            try await Self.rotate(live)
            let second = try await member.token(.app, deviceID: "second")
            let (issuer, issuerAccount) = try Self.issuer(of: second)
            #expect(issuer != account && NKeyPair.isValidPublicKey(issuer, type: .account))
            #expect(issuerAccount == account)
            #expect(live.server.components.natsTrust.signingKeys.accountSigningKeys == [issuer])

            // Both connect: the pushed account JWT lists the new key, and the account key is still trusted.
            let originalClient = try await live.connect(original)
            let secondClient = try await live.connect(second)

            try await Self.rotate(live)
            let third = try await member.token(.app, deviceID: "third")
            #expect(try Self.issuer(of: third).issuer != issuer)
            let thirdClient = try await live.connect(third)

            // Generation 2 removed (a key thought compromised): its user is cut off, cannot come back, and the
            // others stay.
            let cutOff = awaitEvent(secondClient, timeout: .seconds(10)) { event in
                if case .disconnected = event { true } else if case .closed = event { true } else { false }
            }
            try KeyRingFile.update(dataDirectory: live.server.components.configuration.dataDirectory) { rings in
                rings[.natsSigning] = try rings[.natsSigning].removing(2, now: Int64(Date().timeIntervalSince1970))
            }
            try await #require(live.server.components.keyRingReloader).reloadNow()
            #expect(try await cutOff.value != nil, "nats-server drops a user whose signing key left the account")
            await secondClient.close()
            await #expect(throws: NATSError.self) {
                _ = try await live.connect(second, reconnect: .disabled)
            }
            #expect(originalClient.isConnected && thirdClient.isConnected)

            // The full resolver kept the update: after a restart generation 2 stays out, the others come back.
            await originalClient.close()
            await thirdClient.close()
            let restarted = try await live.nats.restarted()
            defer { restarted.stop() }
            await #expect(throws: NATSError.self) {
                _ = try await live.connect(second, reconnect: .disabled)
            }
            for token in [original, third] {
                let again = try await live.connect(token, reconnect: .disabled)
                #expect(again.isConnected)
                await again.close()
            }
        }
    }
}
