// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import Testing
import VettIDCore
import VettIDCrypto

@testable import VettIDSession

/// The KEM's refusal of small-order X25519 keys, checked against swift-crypto's own agreement.
@Suite struct SessionKEMTests {
    /// Every listed key, also with bit 255 set, makes an all-zero shared secret with any private key: the list
    /// holds only small-order points.
    @Test func everyListedKeyMakesAnAllZeroSecret() throws {
        for point in X25519SmallOrder.points {
            for high in [UInt8(0), 0x80] {
                var key = point
                key[31] |= high
                let shared = try Curve25519.KeyAgreement.PrivateKey().sharedSecretFromKeyAgreement(
                    with: Curve25519.KeyAgreement.PublicKey(rawRepresentation: key))
                #expect(shared.withUnsafeBytes { $0.allSatisfy { $0 == 0 } }, "\(key)")
                #expect(X25519SmallOrder.contains(key))
            }
        }
    }

    @Test func ordinaryKeysAreNotSmallOrder() {
        for _ in 0..<1_000 {
            let key = Array(Curve25519.KeyAgreement.PrivateKey().publicKey.rawRepresentation)
            #expect(!X25519SmallOrder.contains(key))
        }
        #expect(!X25519SmallOrder.contains([UInt8](repeating: 0, count: 31)))
    }

    @Test func neitherSideAgreesWithASmallOrderKey() throws {
        for point in X25519SmallOrder.points {
            #expect(throws: SessionError.self) {
                _ = try SessionKEM.encapsulate(suite: .x25519, to: point, info: [])
            }
            let (key, _) = try SessionKEM.privateKey(suite: .x25519, seed: [UInt8](repeating: 7, count: 32))
            do {
                _ = try SessionKEM.decapsulate(key, enc: point, info: [])
                Issue.record("decapsulated a small-order enc")
            } catch {
                #expect(error.code == .keyAgreementFailed)
            }
        }
    }
}
