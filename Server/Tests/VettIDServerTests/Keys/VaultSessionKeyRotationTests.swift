// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import Foundation
import Testing

@testable import VettIDServer

/// The vault's sealed-session handshake keys (docs/protocol.md §7.3) over a token-signing rotation: published
/// before they sign, the current one signing, never a token key.
@Suite struct VaultSessionKeyRotationTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func aRotationPublishesTheNextKeyBeforeItSignsAndKeepsTheOldOne() async throws {
        let server = ServerKeys.ephemeral()
        let keys = try await TokenSigningKeys.make(ring: .original, keys: server)
        let first = keys.vaultSessionKey(now: Self.start)
        #expect(first.kid == "vault-session-1")
        #expect(keys.vaultSessionPublicKeys(now: Self.start).keys.map(\.kid) == ["vault-session-1"])

        let ring = try KeyRing.original.rotated(
            secret: [UInt8](repeating: 7, count: 32), now: Int64(Self.start.timeIntervalSince1970),
            activationDelay: 60)
        try await keys.reload(ring)
        // Pending: published (apps pin it now), not yet signing.
        let pending = keys.vaultSessionPublicKeys(now: Self.start + 59)
        #expect(pending.keys.map(\.kid) == ["vault-session-1", "vault-session-2"])
        #expect(pending.currentKid == "vault-session-1")
        #expect(keys.vaultSessionKey(now: Self.start + 59).kid == "vault-session-1")
        // Active: generation 2 signs; generation 1's public key is unchanged and still listed.
        let active = keys.vaultSessionKey(now: Self.start + 60)
        #expect(active.kid == "vault-session-2")
        #expect(active.key.publicKey.rawRepresentation != first.key.publicKey.rawRepresentation)
        let listed = keys.vaultSessionPublicKeys(now: Self.start + 60)
        #expect(listed.currentKid == "vault-session-2")
        #expect(listed.keys[0].key.rawRepresentation == first.key.publicKey.rawRepresentation)
        #expect(listed.keys[1].key.rawRepresentation == active.key.publicKey.rawRepresentation)
    }

    @Test func theHandshakeKeyIsNoTokenKeyOfTheSameGeneration() async throws {
        let server = ServerKeys.ephemeral()
        let ring = try KeyRing.original.rotated(
            secret: [UInt8](repeating: 9, count: 32), now: Int64(Self.start.timeIntervalSince1970),
            activationDelay: 0)
        for generation in ring.generations {
            let session = try TokenSigningKeys.vaultSessionPrivateKey(generation: generation, keys: server)
            for purpose in TokenSigningKeys.Purpose.allCases {
                let token = try TokenSigningKeys.privateKey(purpose, generation: generation, keys: server)
                #expect(token.rawRepresentation != session.rawRepresentation, "\(purpose) \(generation.number)")
            }
        }
    }
}
