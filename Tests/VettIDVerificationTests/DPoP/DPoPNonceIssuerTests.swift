// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import Foundation
import Testing
import VettIDCrypto
import VettIDVerification

@Suite struct DPoPNonceIssuerTests {
    let key = SymmetricKey(size: .bits256)
    let start = Date(timeIntervalSince1970: 1_700_000_100)  // 1_700_000_100 / 300 is a window boundary + 100 s

    @Test func acceptsCurrentAndPreviousWindowOnly() {
        let issuer = DPoPNonceIssuer(key: key, window: .seconds(300))
        let nonce = issuer.issue(now: start)
        #expect(issuer.validate(nonce: nonce, now: start) == .valid)
        #expect(issuer.validate(nonce: nonce, now: start.addingTimeInterval(299)) == .valid)  // next window
        #expect(issuer.validate(nonce: nonce, now: start.addingTimeInterval(600)) == .stale)  // two windows later
        #expect(issuer.validate(nonce: nonce, now: start.addingTimeInterval(-300)) == .invalid)  // from the future
    }

    @Test func isStatelessAcrossInstancesWithTheSameKey() {
        let first = DPoPNonceIssuer(key: key)
        let second = DPoPNonceIssuer(key: key)
        #expect(first.issue(now: start) == second.issue(now: start))
        #expect(second.validate(nonce: first.issue(now: start), now: start) == .valid)
        let otherKey = DPoPNonceIssuer(key: SymmetricKey(size: .bits256))
        #expect(otherKey.validate(nonce: first.issue(now: start), now: start) == .invalid)
    }

    @Test func refusesTamperedAndMalformedNonces() throws {
        let issuer = DPoPNonceIssuer(key: key)
        var bytes = try #require(Base64URL.decode(issuer.issue(now: start)))
        bytes[7] ^= 1  // move the window without the MAC
        #expect(issuer.validate(nonce: Base64URL.encode(bytes), now: start) == .invalid)
        #expect(issuer.validate(nonce: "", now: start) == .invalid)
        #expect(issuer.validate(nonce: "not base64!", now: start) == .invalid)
        #expect(!String(describing: issuer).contains("key:"))
    }
}
