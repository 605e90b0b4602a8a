// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes
import HummingbirdTesting
import SQLKit
import Testing
import VettIDCore
import VettIDTestSupport

@testable import VettIDServer

/// The at-rest keys over a rotation: what a sealed value names, what still opens, and a reseal that moves every
/// stored secret to the new generation while enrolled devices keep authenticating, on SQLite and PostgreSQL.
@Suite struct AtRestRotationTests {
    static let secret = [UInt8](repeating: 5, count: 32)

    static func rotated(_ ring: KeyRing, now: Date, delay: Int64 = 0) throws -> KeyRing {
        try ring.rotated(secret: secret, now: UnixSeconds.from(now), activationDelay: delay)
    }

    @Test func aSealedValueNamesItsGenerationAndOpensWhileTheRingHoldsIt() throws {
        let clock = ManualClock().wall
        let keys = SealingKeys(ring: .original, keys: .ephemeral(), clock: clock)
        let sealer = SecretSealer(keys: keys, purpose: "transaction-key-at-rest")
        let secret: [UInt8] = Array(1...32)
        let original = try sealer.seal(secret, label: "a")
        #expect(!original.contains("."), "generation 1 keeps the form servers wrote before rotation")

        keys.reload(try Self.rotated(.original, now: clock.now(), delay: 60))
        #expect(!(try sealer.seal(secret, label: "a")).contains("."), "pending: generation 1 still seals")
        clock.advance(60)
        let second = try sealer.seal(secret, label: "a")
        #expect(second.hasPrefix("g2."))
        #expect(sealer.open(original, label: "a") == secret)
        #expect(sealer.open(second, label: "a") == secret)
        #expect(sealer.open(second, label: "b") == nil, "the label still binds the value to its row")
        // Another purpose's key does not open it.
        #expect(SecretSealer(keys: keys, purpose: "credential-key-at-rest").open(second, label: "a") == nil)
        // A prefix that names no generation, or generation 1 (never prefixed), opens nothing.
        let body = second.dropFirst(3)
        for forged in ["g1.\(body)", "g3.\(body)", "gx.\(body)", ".\(body)", "g2\(body)"] {
            #expect(sealer.open(forged, label: "a") == nil, "\(forged.prefix(8))")
        }

        keys.reload(try keys.ring.removing(1, now: UnixSeconds.from(clock.now())))
        #expect(sealer.open(original, label: "a") == nil, "its generation is gone")
        #expect(sealer.open(second, label: "a") == secret)
    }

    @Test(arguments: TestEngine.available)
    func aResealMovesEverySecretAndDevicesKeepAuthenticating(engine: TestEngine) async throws {
        try await TestApp.withApp(engine, configuration: VaultTest.configuration()) { client, app in
            let device = GateTest.Device()
            let (package, nonce) = try await client.enroll(device)
            let keys = app.components.sealingKeys
            let resealer = AtRestResealer(store: app.components.store, keys: keys, batchSize: 7)
            let stored = try await resealer.census()
            #expect(stored[1, default: 0] >= 21, "one credential key and its 20 transaction keys, under generation 1")

            // Rotated: the next authentication opens the generation-1 credential key and seals version 2 under
            // generation 2.
            keys.reload(try Self.rotated(.original, now: app.components.clock.now()))
            let action = try await client.actionRequest(device, package: package, nonce: nonce, counter: 1)
            let executed = try await client.authExecute(device, package: package, action: action.json, nonce: nonce)
            #expect(executed.status == .ok)
            let next = try VaultTest.Package(try #require(executed.json["credential_package"] as? [String: Any]))
            let afterAuth = try await resealer.census()
            #expect(afterAuth[2, default: 0] >= 1, "the rotated credential key is under generation 2")
            #expect(afterAuth[1, default: 0] > 0)

            // The reseal moves the rest (in batches smaller than the table) and leaves nothing under generation 1.
            let report = try await resealer.reseal()
            #expect(report.resealed == afterAuth[1, default: 0])
            #expect(report.unreadable == 0)
            let census = try await resealer.census()
            #expect(census[1, default: 0] == 0)
            #expect(census[2, default: 0] == afterAuth[1, default: 0] + afterAuth[2, default: 0], "every value moved")
            #expect(try await resealer.reseal() == .init(), "a second run has nothing to do")

            // Generation 1 dropped: the device authenticates with the keys sealed again.
            keys.reload(try keys.ring.removing(1, now: UnixSeconds.from(app.components.clock.now())))
            let second = try await client.actionRequest(device, package: next, nonce: nonce, counter: 2)
            #expect(second.status == .ok)
            #expect(
                try await client.authExecute(device, package: next, action: second.json, nonce: nonce).status == .ok)
        }
    }
}
