// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import Foundation
import NIOConcurrencyHelpers

/// What verifying a signed token yielded, remembered by the token's SHA-256 until the token expires, so a token
/// presented again (every request of a session or a Gate client does) costs a hash instead of an ES256 verify.
///
/// Only tokens that verified are remembered, with their own `exp`: an entry can never outlive the token, and a
/// forged or altered token has another hash. Revocation is not a property of the token (sessions and Gate tokens
/// are checked elsewhere), so nothing is lost. Past `capacity` entries the expired ones are dropped, and if that
/// is not enough, all of them (the next presentations verify again). Each entry names the key generation that
/// signed the token, so a generation removed from the ring (``TokenSigningKeys``) stops its tokens here too.
final class VerifiedTokenCache<Value: Sendable>: Sendable {
    private struct Entry {
        let value: Value
        let generation: Int
        let expiresAt: Date
    }

    let capacity: Int
    private let entries = NIOLockedValueBox<[SHA256Digest: Entry]>([:])

    init(capacity: Int = 100_000) {
        self.capacity = max(1, capacity)
    }

    /// The remembered result for `token`, if it has not expired at `now` and its signing generation is still
    /// held by `keys`.
    func value(for token: String, now: Date, keys: TokenSigningKeys) -> Value? {
        guard let (value, generation) = entry(for: token, now: now), keys.holds(generation: generation) else {
            return nil
        }
        return value
    }

    private func entry(for token: String, now: Date) -> (Value, Int)? {
        let key = SHA256.hash(data: Array(token.utf8))
        return entries.withLockedValue { entries in
            guard let entry = entries[key] else { return nil }
            guard entry.expiresAt > now else {
                entries[key] = nil
                return nil
            }
            return (entry.value, entry.generation)
        }
    }

    /// Remembers `value` for `token`, signed by key `generation`, until `expiresAt`.
    func remember(_ value: Value, for token: String, generation: Int, expiresAt: Date, now: Date) {
        guard expiresAt > now else { return }
        let key = SHA256.hash(data: Array(token.utf8))
        entries.withLockedValue { entries in
            if entries.count >= capacity {
                entries = entries.filter { $0.value.expiresAt > now }
                if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            }
            entries[key] = Entry(value: value, generation: generation, expiresAt: expiresAt)
        }
    }

    /// How many tokens are remembered.
    var count: Int { entries.withLockedValue { $0.count } }
}
