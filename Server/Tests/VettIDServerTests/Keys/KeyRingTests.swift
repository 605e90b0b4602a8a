// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing

@testable import VettIDServer

/// The pure rules of a key ring: which generation is current, when a rotation and a prune are allowed, and what
/// the file keeps.
@Suite struct KeyRingTests {
    static let secret = [UInt8](repeating: 7, count: 32)
    static let otherSecret = [UInt8](repeating: 9, count: 32)

    @Test func aRotationVerifiesAtOnceAndSignsOnlyFromItsActivation() throws {
        let ring = try KeyRing.original.rotated(secret: Self.secret, now: 1_000, activationDelay: 60)
        #expect(ring.generations.map(\.number) == [1, 2])
        #expect(ring.current(at: 1_000).number == 1)
        #expect(ring.current(at: 1_059).number == 1)
        #expect(ring.current(at: 1_060).number == 2)
        #expect(ring.generation(2)?.secret == Self.secret)
        #expect(ring.supersededAt(.original, now: 1_059) == nil)
        #expect(ring.supersededAt(.original, now: 1_060) == 1_060)
    }

    @Test func aSecondRotationWaitsForTheFirstToActivate() throws {
        let ring = try KeyRing.original.rotated(secret: Self.secret, now: 1_000, activationDelay: 60)
        #expect(throws: KeyRing.Refusal.self) {
            try ring.rotated(secret: Self.otherSecret, now: 1_030, activationDelay: 60)
        }
        let third = try ring.rotated(secret: Self.otherSecret, now: 1_060, activationDelay: 0)
        #expect(third.current(at: 1_060).number == 3)
        #expect(throws: KeyRing.Refusal.self) { try ring.rotated(secret: [1, 2, 3], now: 2_000, activationDelay: 0) }
    }

    @Test func aPruneDropsOnlyGenerationsSupersededForTheRetention() throws {
        let ring = try KeyRing.original.rotated(secret: Self.secret, now: 1_000, activationDelay: 60)
        // Generation 1 is superseded at 1060; with a retention of 960 s it may go at 2020, not before.
        #expect(ring.pruned(now: 1_030, retention: 960).removed.isEmpty, "still current")
        #expect(ring.pruned(now: 2_019, retention: 960).removed.isEmpty)
        let (pruned, removed) = ring.pruned(now: 2_020, retention: 960)
        #expect(removed == [1])
        #expect(pruned.generations.map(\.number) == [2])
        #expect(pruned.current(at: 2_020).number == 2)
        // The only generation never goes.
        #expect(pruned.pruned(now: 100_000, retention: 0).removed.isEmpty)
    }

    @Test func removingRefusesTheCurrentAndUnknownGenerations() throws {
        let ring = try KeyRing.original.rotated(secret: Self.secret, now: 1_000, activationDelay: 0)
        #expect(
            throws: KeyRing.Refusal(
                code: "current_generation", description: "generation 2 is current; rotate before removing it")
        ) {
            try ring.removing(2, now: 1_000)
        }
        #expect(throws: KeyRing.Refusal.self) { try ring.removing(5, now: 1_000) }
        #expect(try ring.removing(1, now: 1_000).generations.map(\.number) == [2])
        // A pending generation may be removed: that cancels the rotation.
        let pending = try KeyRing.original.rotated(secret: Self.secret, now: 1_000, activationDelay: 60)
        #expect(try pending.removing(2, now: 1_010) == .original)
    }

    @Test func aRingRefusesGenerationsThatCannotBeKeys() {
        #expect(throws: KeyRing.Refusal.self) { try KeyRing(generations: []) }
        #expect(throws: KeyRing.Refusal.self) {
            try KeyRing(generations: [.original, .original])
        }
        #expect(throws: KeyRing.Refusal.self) {
            try KeyRing(generations: [.init(number: 2, secret: nil, createdAt: 0, activatesAt: 0)])
        }
        #expect(throws: KeyRing.Refusal.self) {
            try KeyRing(generations: [.init(number: 2, secret: [1], createdAt: 0, activatesAt: 0)])
        }
        #expect(throws: KeyRing.Refusal.self) {
            try KeyRing(generations: [.init(number: 0, secret: Self.secret, createdAt: 0, activatesAt: 0)])
        }
    }

    @Test func theFileKeepsEveryFamilyAndRefusesWhatItCannotRead() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vettid-ring-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(try KeyRingFile.load(dataDirectory: directory) == .original, "no file: generation 1 everywhere")
        let rotated = try KeyRingFile.update(dataDirectory: directory) { rings in
            rings[.natsSigning] = try rings[.natsSigning].rotated(secret: Self.secret, now: 5, activationDelay: 10)
            return rings
        }
        let path = KeyRingFile.path(dataDirectory: directory)
        #expect((try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) == 0o600)
        #expect(try KeyRingFile.load(dataDirectory: directory) == rotated)
        #expect(try KeyRingFile.load(dataDirectory: directory)[.natsSigning].generation(2)?.activatesAt == 15)
        #expect(try KeyRingFile.load(dataDirectory: directory)[.tokenSigning] == .original)

        for text in [
            #"{"format": 2}"#, #"{"format": 1, "mystery": []}"#, "not json",
            #"{"format": 1, "at-rest": [{"generation": 2, "secret": "!!", "created_at": 0, "activates_at": 0}]}"#,
            #"{"format": 1, "at-rest": [{"generation": 2, "created_at": 0, "activates_at": 0}]}"#,
        ] {
            #expect(throws: KeyRingFile.Failure.self, "\(text)") {
                try KeyRingFile.decode(Array(text.utf8), path: "test")
            }
        }
        // A file others can read is refused, like every key file.
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        #expect(throws: SecretFile.Failure.self) { try KeyRingFile.load(dataDirectory: directory) }
    }

    @Test func retentionCoversTheLongestTokenOfTheFamily() {
        var configuration = ServerConfiguration()
        configuration.vault.enrollmentSessionLifetime = .seconds(1_800)
        #expect(configuration.keyRetention(of: .tokenSigning) == .seconds(1_860))
        configuration.nats.appTokenLifetime = .seconds(3_600)
        configuration.nats.vaultTokenLifetime = .seconds(600)
        #expect(configuration.keyRetention(of: .natsSigning) == .seconds(3_660))
        #expect(configuration.keyRetention(of: .atRest) == nil)
    }
}
