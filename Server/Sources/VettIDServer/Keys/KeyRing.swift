// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import VettIDCore

/// The generations of one family of server keys (see ``KeyFamily``): which one signs or seals now, which ones
/// still verify or open, and how a rotation or a prune changes that. A pure value; ``KeyRingFile`` stores it and
/// the live holders (``TokenSigningKeys``) read it.
///
/// Generation 1 is the key every server had before its first rotation (derived from `master.key`, or the
/// access-token file), so upgrading changes nothing: tokens and sealed values made before keep their meaning. A
/// rotation adds generation `max + 1` that becomes current only at its activation time, after every instance has
/// had time to load it (``KeyRingReloader``); until then it already verifies, so no instance sees a token it cannot
/// check. A prune drops the generations that stopped being current at least `retention` ago.
public struct KeyRing: Sendable, Equatable {
    /// One generation of a family.
    public struct Generation: Sendable, Equatable {
        /// 1, 2, …; it names the key (`kid` of a token, prefix of a sealed value).
        public let number: Int
        /// 32 random bytes the family's keys are derived from; `nil` for generation 1, derived from the master key.
        public let secret: [UInt8]?
        /// When it was added (unix seconds).
        public let createdAt: Int64
        /// From when it signs or seals (unix seconds).
        public let activatesAt: Int64

        /// Generation 1: what a server had before any rotation.
        public static let original = Generation(number: 1, secret: nil, createdAt: 0, activatesAt: 0)

        public init(number: Int, secret: [UInt8]?, createdAt: Int64, activatesAt: Int64) {
            self.number = number
            self.secret = secret
            self.createdAt = createdAt
            self.activatesAt = activatesAt
        }
    }

    /// Why a rotation or a prune was refused.
    public struct Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        public let code: String
        public let description: String
    }

    /// Oldest first; never empty.
    public let generations: [Generation]

    /// The ring of a server that never rotated: generation 1 only.
    public static let original = KeyRing(validated: [.original])

    private init(validated generations: [Generation]) {
        self.generations = generations
    }

    /// A ring of `generations` (any order); refused when empty, when a number repeats or is below 1, or when a
    /// generation after the first has no 32-byte secret.
    public init(generations: [Generation]) throws(Refusal) {
        let sorted = generations.sorted { $0.number < $1.number }
        guard !sorted.isEmpty else { throw Refusal(code: "empty_ring", description: "a key ring needs a generation") }
        for (index, generation) in sorted.enumerated() {
            guard generation.number >= 1, index == 0 || sorted[index - 1].number < generation.number else {
                throw Refusal(code: "bad_generation", description: "generation numbers must be distinct and positive")
            }
            if let secret = generation.secret {
                guard secret.count == 32 else {
                    throw Refusal(
                        code: "bad_secret", description: "generation \(generation.number) needs a 32-byte secret")
                }
            } else if generation.number != 1 {
                throw Refusal(code: "bad_secret", description: "generation \(generation.number) has no secret")
            }
        }
        self.generations = sorted
    }

    /// The generation that signs or seals at `now`: the newest whose activation has come (the oldest one before
    /// any has, so a ring always has a current generation).
    public func current(at now: Int64) -> Generation {
        generations.last { $0.activatesAt <= now } ?? generations[0]
    }

    /// The generation numbered `number`, if the ring still holds it.
    public func generation(_ number: Int) -> Generation? {
        generations.first { $0.number == number }
    }

    /// When `generation` stopped being current: the activation of the first later generation that has activated,
    /// or `nil` while it is (or may still become) current.
    public func supersededAt(_ generation: Generation, now: Int64) -> Int64? {
        generations.first { $0.number > generation.number && $0.activatesAt <= now }?.activatesAt
    }

    /// The ring with a new generation `max + 1` holding `secret`, current from `now + activationDelay`.
    /// Refused while an earlier rotation has not activated yet (two pending generations would make the
    /// propagation delay meaningless).
    public func rotated(secret: [UInt8], now: Int64, activationDelay: Int64) throws(Refusal) -> KeyRing {
        guard secret.count == 32 else { throw Refusal(code: "bad_secret", description: "a secret has 32 bytes") }
        if let pending = generations.last, pending.activatesAt > now {
            throw Refusal(
                code: "rotation_pending",
                description: "generation \(pending.number) activates in \(pending.activatesAt - now) s; rotate after it"
            )
        }
        let next = Generation(
            number: generations[generations.count - 1].number + 1, secret: secret, createdAt: now,
            activatesAt: now + max(0, activationDelay))
        return KeyRing(validated: generations + [next])
    }

    /// The ring without generation `number`, at once: for a key thought compromised (what it signed stops verifying,
    /// what it sealed stops opening). Refused for the current generation (rotate with no delay first) and for a
    /// number the ring does not hold.
    public func removing(_ number: Int, now: Int64) throws(Refusal) -> KeyRing {
        guard generation(number) != nil else {
            throw Refusal(code: "unknown_generation", description: "the ring holds no generation \(number)")
        }
        guard current(at: now).number != number else {
            throw Refusal(
                code: "current_generation", description: "generation \(number) is current; rotate before removing it")
        }
        return KeyRing(validated: generations.filter { $0.number != number })
    }

    /// The ring without the generations superseded at least `retention` seconds before `now` (everything they
    /// signed has expired), and the numbers it dropped. The current generation always stays.
    public func pruned(now: Int64, retention: Int64) -> (ring: KeyRing, removed: [Int]) {
        let current = current(at: now)
        var kept: [Generation] = []
        var removed: [Int] = []
        for generation in generations {
            if generation.number < current.number, let superseded = supersededAt(generation, now: now),
                superseded + retention <= now
            {
                removed.append(generation.number)
            } else {
                kept.append(generation)
            }
        }
        return (KeyRing(validated: kept), removed)
    }
}

extension ServerConfiguration {
    /// How long a generation of `family` must stay after it stopped being current: the longest lifetime of what
    /// it signed, plus a minute for clock skew. `nil` for ``KeyFamily/atRest``, whose generations go when no
    /// sealed value names them (`vettid-server keys reseal`), not after a time.
    public func keyRetention(of family: KeyFamily) -> Duration? {
        let skew = Duration.seconds(60)
        switch family {
        case .tokenSigning:
            return [
                tokens.accessTokenLifetime, gate.tokenLifetime, vault.sessionLifetime, vault.actionLifetime,
                vault.enrollmentSessionLifetime,
            ].max()! + skew
        case .natsSigning:
            return max(nats.appTokenLifetime, nats.vaultTokenLifetime) + skew
        case .atRest:
            return nil
        }
    }
}
