// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import VettIDCrypto

#if canImport(FoundationEssentials)
    import FoundationEssentials
    import Foundation
#else
    import Foundation
#endif

/// Public keys from proofs' `jwk` headers, parsed once per key: a device signs every proof with the same key, and
/// turning `x` and `y` into a validated curve point costs a noticeable share of a verification.
///
/// Keyed by the `x` and `y` strings exactly as sent. The verifier checks `kty`, `crv` and the absence of private
/// members before it asks, so a hit stands for the same parse result as a fresh `P256PublicJWK(json:)`. Bounded:
/// past `capacity` keys it starts over.
final class DPoPKeyCache: Sendable {
    struct Entry: Sendable {
        let jwk: P256PublicJWK
        let thumbprint: String
    }

    let capacity: Int
    private let entries = LockedValue<[Coordinates: Entry]>([:])

    /// The cache key: both coordinates as sent.
    private struct Coordinates: Hashable, Sendable {
        let x: String
        let y: String
    }

    init(capacity: Int = 10_000) {
        self.capacity = max(1, capacity)
    }

    /// The key for these coordinates, parsed and remembered on first use.
    func entry(x: String, y: String) throws(JOSEError) -> Entry {
        let key = Coordinates(x: x, y: y)
        if let hit = entries.withLock({ $0[key] }) { return hit }
        let jwk = try P256PublicJWK(x: x, y: y)
        let entry = Entry(jwk: jwk, thumbprint: jwk.thumbprint)
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = entry
        }
        return entry
    }
}
