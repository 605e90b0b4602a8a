// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import VettIDCrypto

// The inits' nonces the vault has seen, so that a recorded init cannot be played again.

/// Where the vault remembers the `nonce_a` of accepted inits for 600 s (twice the 300 s clock window, so an init
/// whose timestamp is still acceptable is always still remembered).
public protocol HandshakeNonceCache: Sendable {
    /// Whether `nonce` was recorded less than the cache's lifetime before `nowMilliseconds`.
    func contains(_ nonce: [UInt8], nowMilliseconds: UInt64) -> Bool
    /// Records `nonce` unless it is present; returns false when it was (a replay).
    func insert(_ nonce: [UInt8], nowMilliseconds: UInt64) -> Bool
}

/// An in-process ``HandshakeNonceCache``, shared by every worker instance of the process, bounded in size.
///
/// Entries expire after ``lifetimeMilliseconds``; when ``capacity`` entries are live the oldest is dropped. Only inits whose
/// device signature verified and whose device the worker found enrolled are recorded (``SessionResponder`` records
/// in ``SessionResponder/accept(_:identity:)``), so filling the cache takes enrolled devices, not forged inits.
public final class InMemoryHandshakeNonceCache: HandshakeNonceCache {
    /// The most nonces kept.
    public let capacity: Int
    /// How long a nonce is kept, in milliseconds.
    public let lifetimeMilliseconds: UInt64
    private let state = LockedValue(Window())

    private struct Window {
        var expiries: [[UInt8]: UInt64] = [:]
        /// Nonces in the order they were recorded (their expiries are then in order too); `head` is the oldest.
        var order: [[UInt8]] = []
        var head = 0

        mutating func dropExpired(now: UInt64) {
            while head < order.count, let expiry = expiries[order[head]], expiry <= now {
                expiries[order[head]] = nil
                head += 1
            }
            if head > 1024, head * 2 > order.count {
                order.removeFirst(head)
                head = 0
            }
        }

        mutating func dropOldest() {
            guard head < order.count else { return }
            expiries[order[head]] = nil
            head += 1
        }
    }

    /// A cache of at most `capacity` nonces (at least 1), each kept for `lifetime` (600 s by default).
    public init(capacity: Int = 100_000, lifetime: Duration = .seconds(600)) {
        precondition(capacity >= 1, "the nonce cache holds at least one nonce")
        self.capacity = capacity
        self.lifetimeMilliseconds = lifetime.wholeMilliseconds
    }

    public func contains(_ nonce: [UInt8], nowMilliseconds: UInt64) -> Bool {
        state.withLock { window in
            window.dropExpired(now: nowMilliseconds)
            return window.expiries[nonce] != nil
        }
    }

    public func insert(_ nonce: [UInt8], nowMilliseconds: UInt64) -> Bool {
        state.withLock { window in
            window.dropExpired(now: nowMilliseconds)
            guard window.expiries[nonce] == nil else { return false }
            while window.expiries.count >= capacity { window.dropOldest() }
            window.expiries[nonce] = nowMilliseconds + lifetimeMilliseconds
            window.order.append(nonce)
            return true
        }
    }

    /// How many nonces are kept now (expired ones included until the next call drops them).
    public var count: Int { state.withLock { $0.expiries.count } }
}
