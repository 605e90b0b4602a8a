// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import NIOConcurrencyHelpers
public import VettIDCore

/// The keys that seal secrets at rest, one per purpose in every generation of the `at-rest` ``KeyRing``, swapped
/// at run time when the ring changes.
///
/// Generation 1 derives each purpose's key from the master key (HKDF-SHA256, `info = "vettid/<purpose>"`), as
/// servers did before rotation existed; later generations derive it from their own secret the same way. New values
/// are sealed under the generation current at the time; a value names its generation (`SecretSealer`), so any
/// generation the ring holds still opens what it sealed. `vettid-server keys reseal` moves every stored value to
/// the current generation and drops the generations nothing names any more.
public final class SealingKeys: Sendable {
    private struct Snapshot {
        let ring: KeyRing
        /// Generation → purpose → key.
        let keys: [Int: [String: SymmetricKey]]
    }

    /// What the server seals, each under its own key.
    static let purposes = [
        "transaction-key-at-rest", "credential-key-at-rest", VaultDataKeyRepository.purpose,
    ]

    private let master: ServerKeys
    private let clock: any WallClock
    private let state: NIOLockedValueBox<Snapshot>

    /// The keys of `ring`; generation 1 comes from `keys`' master key.
    public init(ring: KeyRing, keys: ServerKeys, clock: any WallClock = SystemWallClock()) {
        self.master = keys
        self.clock = clock
        self.state = NIOLockedValueBox(Self.snapshot(of: ring, master: keys))
    }

    /// Swaps in the keys of `ring`; whether anything changed.
    @discardableResult
    public func reload(_ ring: KeyRing) -> Bool {
        guard state.withLockedValue({ $0.ring }) != ring else { return false }
        let next = Self.snapshot(of: ring, master: master)
        state.withLockedValue { $0 = next }
        return true
    }

    /// The ring in use.
    public var ring: KeyRing { state.withLockedValue { $0.ring } }

    /// The generation that seals now and its key for `purpose`.
    func current(_ purpose: String) -> (generation: Int, key: SymmetricKey) {
        let now = UnixSeconds.from(clock.now())
        return state.withLockedValue { state in
            let generation = state.ring.current(at: now).number
            return (generation, state.keys[generation]![purpose]!)
        }
    }

    /// The key of `purpose` in `generation`, if the ring still holds it.
    func key(_ purpose: String, generation: Int) -> SymmetricKey? {
        state.withLockedValue { $0.keys[generation]?[purpose] }
    }

    private static func snapshot(of ring: KeyRing, master: ServerKeys) -> Snapshot {
        var keys: [Int: [String: SymmetricKey]] = [:]
        for generation in ring.generations {
            var byPurpose: [String: SymmetricKey] = [:]
            for purpose in purposes {
                if let secret = generation.secret {
                    byPurpose[purpose] = HKDF<SHA256>.deriveKey(
                        inputKeyMaterial: SymmetricKey(data: secret), info: Array("vettid/\(purpose)".utf8),
                        outputByteCount: 32)
                } else {
                    byPurpose[purpose] = master.derivedKey(purpose: purpose)
                }
            }
            keys[generation.number] = byPurpose
        }
        return Snapshot(ring: ring, keys: keys)
    }
}
