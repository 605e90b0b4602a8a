// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import Foundation
import Logging
import Testing
import VettIDCrypto

@testable import VettIDServer

/// Token-signing keys over a rotation: what every token kind carries (`kid`), what verifies when, across two
/// instances that load the ring at different moments, and what a removed generation stops.
@Suite struct TokenKeyRotationTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)
    static let secret = [UInt8](repeating: 3, count: 32)

    static func header(_ token: String) throws -> [String: String] {
        let segment = try #require(token.split(separator: ".").first)
        let bytes = try #require(Base64URL.decode(segment))
        return try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: String])
    }

    static func rotatedRing(delay: Int64 = 60) throws -> KeyRing {
        try KeyRing.original.rotated(secret: secret, now: Int64(start.timeIntervalSince1970), activationDelay: delay)
    }

    @Test func everyTokenKindNamesItsKeyAndTheOldKeyKeepsVerifyingAfterARotation() async throws {
        let server = ServerKeys.ephemeral()
        let keys = try await TokenSigningKeys.make(ring: .original, keys: server)
        let access = TokenService(configuration: .init(), keys: keys)
        let gate = GateTokenService(keys: keys, issuer: "vettid", lifetime: .seconds(600))
        let vault = VaultTokenService(keys: keys, issuer: "vettid")
        let jkt = "0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I"

        let old = try await access.issueAccessToken(memberID: UUID(), sessionID: UUID(), boundJKT: nil, now: Self.start)
        let oldGate = try await gate.issue(
            subject: "development", boundJKT: jkt, environment: "development", now: Self.start)
        let oldVault = try await vault.issue(
            .session, userGUID: "u", contextID: "c", boundJKT: jkt, lifetime: .seconds(900), now: Self.start)
        #expect(try Self.header(old)["kid"] == "access-1")
        #expect(try Self.header(oldGate)["kid"] == "gate-1")
        #expect(try Self.header(oldVault)["kid"] == "vault-1")

        try await keys.reload(try Self.rotatedRing())
        // Pending: still signs with generation 1; both verify.
        let pending = try await access.issueAccessToken(
            memberID: UUID(), sessionID: UUID(), boundJKT: nil, now: Self.start + 59)
        #expect(try Self.header(pending)["kid"] == "access-1")
        // Active: generation 2 signs every kind; generation 1's tokens still verify.
        let later = Self.start + 60
        let new = try await access.issueAccessToken(memberID: UUID(), sessionID: UUID(), boundJKT: nil, now: later)
        let newGate = try await gate.issue(
            subject: "development", boundJKT: jkt, environment: "development", now: later)
        let newVault = try await vault.issue(
            .session, userGUID: "u", contextID: "c", boundJKT: jkt, lifetime: .seconds(900), now: later)
        #expect(try Self.header(new)["kid"] == "access-2")
        #expect(try Self.header(newGate)["kid"] == "gate-2")
        #expect(try Self.header(newVault)["kid"] == "vault-2")
        for token in [old, new] { #expect(await access.verifyAccessToken(token, now: later) != nil) }
        for token in [oldGate, newGate] { #expect(await gate.verify(token, now: later) != nil) }
        for token in [oldVault, newVault] { #expect(await vault.verify(token, as: .session, now: later) != nil) }
    }

    /// Instance B reads the ring later than A. Because a generation only signs after its activation delay, B has
    /// it before any token signed with it exists; without the delay B would refuse A's tokens until it reloads.
    @Test func anotherInstanceVerifiesWhatTheFirstSignsOnceItReloaded() async throws {
        let server = ServerKeys.ephemeral()
        let a = TokenService(
            configuration: .init(), keys: try await TokenSigningKeys.make(ring: .original, keys: server))
        let bKeys = try await TokenSigningKeys.make(ring: .original, keys: server)
        let b = TokenService(configuration: .init(), keys: bKeys)
        let aKeys = try await TokenSigningKeys.make(ring: try Self.rotatedRing(delay: 0), keys: server)
        let aRotated = TokenService(configuration: .init(), keys: aKeys)

        let token = try await aRotated.issueAccessToken(
            memberID: UUID(), sessionID: UUID(), boundJKT: nil, now: Self.start)
        #expect(try Self.header(token)["kid"] == "access-2")
        #expect(await b.verifyAccessToken(token, now: Self.start) == nil, "B has not loaded generation 2 yet")
        try await bKeys.reload(try Self.rotatedRing(delay: 0))
        #expect(await b.verifyAccessToken(token, now: Self.start) != nil)
        // And the same master key gives the same generation-1 keys on both.
        let old = try await a.issueAccessToken(memberID: UUID(), sessionID: UUID(), boundJKT: nil, now: Self.start)
        #expect(await b.verifyAccessToken(old, now: Self.start) != nil)
    }

    @Test func aRemovedGenerationStopsVerifyingEvenForTokensVerifiedBefore() async throws {
        let keys = try await TokenSigningKeys.make(ring: .original, keys: .ephemeral())
        let access = TokenService(configuration: .init(), keys: keys)
        let gate = GateTokenService(keys: keys, issuer: "vettid", lifetime: .seconds(600))
        // Tokens of generation 1, signed before the rotation.
        let ringWithOne = try Self.rotatedRing(delay: 0)
        let old = try await access.issueAccessToken(memberID: UUID(), sessionID: UUID(), boundJKT: nil, now: Self.start)
        let oldGate = try await gate.issue(
            subject: "development", boundJKT: "0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I", environment: "development",
            now: Self.start)
        try await keys.reload(ringWithOne)
        #expect(await access.verifyAccessToken(old, now: Self.start) != nil, "verified once: remembered")
        #expect(await gate.verify(oldGate, now: Self.start) != nil)
        try await keys.reload(try ringWithOne.removing(1, now: Int64(Self.start.timeIntervalSince1970)))
        #expect(await access.verifyAccessToken(old, now: Self.start) == nil, "the remembered result goes with its key")
        #expect(await gate.verify(oldGate, now: Self.start) == nil)
    }

    /// Tokens whose `kid` lies: another purpose's key, a generation the ring does not hold, none at all, or the
    /// name of one generation on a signature of another. jwt-kit would verify an unknown `kid` with its default key;
    /// the collections have none.
    @Test func aKidThatDoesNotNameTheSigningKeyIsRefused() async throws {
        let server = ServerKeys.ephemeral()
        let keys = try await TokenSigningKeys.make(ring: try Self.rotatedRing(delay: 0), keys: server)
        let access = TokenService(configuration: .init(), keys: keys)
        let genuine = try await access.issueAccessToken(
            memberID: UUID(), sessionID: UUID(), boundJKT: nil, now: Self.start)
        #expect(await access.verifyAccessToken(genuine, now: Self.start) != nil)
        let parts = genuine.split(separator: ".").map(String.init)

        func resign(header: [String: String], with key: P256.Signing.PrivateKey) throws -> String {
            let encodedHeader = Base64URL.encode(
                try JSONSerialization.data(withJSONObject: header, options: [.sortedKeys]))
            let input = encodedHeader + "." + parts[1]
            let signature = try key.signature(for: Array(input.utf8)).rawRepresentation
            return input + "." + Base64URL.encode(signature)
        }
        let generation2 = try TokenSigningKeys.privateKey(
            .access, generation: try #require(keys.ring.generation(2)), keys: server)
        let gateKey = try TokenSigningKeys.privateKey(
            .gate, generation: try #require(keys.ring.generation(2)), keys: server)
        // Control: re-signing the same payload honestly verifies (so the refusals below are about the kid).
        #expect(
            await access.verifyAccessToken(
                try resign(header: ["alg": "ES256", "typ": "JWT", "kid": "access-2"], with: generation2),
                now: Self.start) != nil)
        let lies = [
            try resign(header: ["alg": "ES256", "typ": "JWT", "kid": "gate-2"], with: gateKey),
            try resign(header: ["alg": "ES256", "typ": "JWT", "kid": "access-7"], with: generation2),
            try resign(header: ["alg": "ES256", "typ": "JWT"], with: generation2),
            try resign(header: ["alg": "ES256", "typ": "JWT", "kid": "access-1"], with: generation2),
            try resign(header: ["alg": "ES256", "typ": "JWT", "kid": "access-2"], with: server.accessTokenSigningKey),
        ]
        for lie in lies {
            #expect(await access.verifyAccessToken(lie, now: Self.start) == nil, "\(lie.prefix(80))")
        }
    }

    /// Through a running server: members signed in before a rotation stay signed in, a refresh after it gets a
    /// token of the new generation, and the reloader picks the file up without a restart.
    @Test func aServerPicksUpARotationFromItsDataDirectory() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vettid-rot-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var configuration = ServerConfiguration()
        configuration.dataDirectory = directory
        configuration.port = 0
        configuration.argon2 = .init(iterations: 1, memoryKiB: 8, parallelism: 1)
        let components = try await ServerComponents.make(configuration: configuration, logger: .init(label: "test"))
        let reloader = try #require(components.keyRingReloader)
        let tokens = components.auth.tokens
        let member = UUID()
        let now = Date()
        let before = try await tokens.issueAccessToken(memberID: member, sessionID: UUID(), boundJKT: nil, now: now)
        try KeyRingFile.update(dataDirectory: directory) { rings in
            rings[.tokenSigning] = try rings[.tokenSigning].rotated(
                secret: Self.secret, now: Int64(now.timeIntervalSince1970), activationDelay: 0)
        }
        #expect(
            try Self.header(
                try await tokens.issueAccessToken(memberID: member, sessionID: UUID(), boundJKT: nil, now: now))["kid"]
                == "access-1", "not reloaded yet")
        try await reloader.reloadNow()
        let after = try await tokens.issueAccessToken(memberID: member, sessionID: UUID(), boundJKT: nil, now: now)
        #expect(try Self.header(after)["kid"] == "access-2")
        #expect(await tokens.verifyAccessToken(before, now: now)?.memberID == member)
        #expect(await tokens.verifyAccessToken(after, now: now)?.memberID == member)
        // A restarted server loads the ring the same way.
        try await components.shutdownStores()
        let restarted = try await ServerComponents.make(configuration: configuration, logger: .init(label: "test"))
        #expect(await restarted.auth.tokens.verifyAccessToken(before, now: now)?.memberID == member)
        #expect(await restarted.auth.tokens.verifyAccessToken(after, now: now)?.memberID == member)
        try await restarted.shutdownStores()
    }
}
