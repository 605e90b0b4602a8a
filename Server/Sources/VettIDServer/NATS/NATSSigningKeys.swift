// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import NIOConcurrencyHelpers
public import VettIDCrypto

/// The keys that sign members' and workers' user JWTs: the application account's signing keys, one per
/// generation of the `nats-signing` ``KeyRing``, swapped at run time when the ring changes.
///
/// Generation 1 is the account key itself (what servers signed with before rotation existed; nats-server trusts an
/// account's own key for as long as the account exists, so removing generation 1 from the ring stops issuing with
/// it but cannot withdraw it from nats-server). Later generations are account signing keys (`A…`, Ed25519 from
/// HKDF-SHA256 of the generation's secret, `info = "vettid/nats-account-signing"`) listed in the account JWT's
/// `signing_keys`; a user JWT they sign names the account in `issuer_account`. A generation is listed from the
/// moment the ring holds it, and signs only from its activation, by which time every instance has pushed the
/// account JWT that lists it.
public final class NATSSigningKeys: Sendable {
    private struct Snapshot {
        let ring: KeyRing
        /// Generation → signing key, for the generations after the first.
        let keys: [Int: NKeyPair]
    }

    /// The application account.
    public let account: NKeyPair
    private let state: NIOLockedValueBox<Snapshot>

    /// The account key alone (generation 1); ``reload(_:)`` adds the ring's later generations.
    public init(account: NKeyPair) {
        self.account = account
        self.state = NIOLockedValueBox(Snapshot(ring: .original, keys: [:]))
    }

    /// Swaps in the keys of `ring`; whether anything changed (the account JWT must then be pushed again).
    @discardableResult
    public func reload(_ ring: KeyRing) throws -> Bool {
        guard state.withLockedValue({ $0.ring }) != ring else { return false }
        let next = try Self.snapshot(of: ring)
        state.withLockedValue { $0 = next }
        return true
    }

    /// The ring in use.
    public var ring: KeyRing { state.withLockedValue { $0.ring } }

    /// The signing keys the account JWT lists (every generation after the first the ring holds), sorted.
    public var accountSigningKeys: [String] {
        state.withLockedValue { $0.keys.values.map(\.publicKey).sorted() }
    }

    /// The key that signs user JWTs at `now`, and the `issuer_account` those JWTs name (`nil` when the account
    /// key itself signs).
    public func issuer(at now: Int64) -> (key: NKeyPair, issuerAccount: String?) {
        let key = state.withLockedValue { state in state.keys[state.ring.current(at: now).number] }
        guard let key else { return (account, nil) }
        return (key, account.publicKey)
    }

    /// The signing key a generation's secret gives.
    static func signingKey(secret: [UInt8]) throws -> NKeyPair {
        let seed = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: secret), info: Array("vettid/nats-account-signing".utf8),
            outputByteCount: 32)
        return try seed.withUnsafeBytes { bytes in try NKeyPair(type: .account, rawSeed: Array(bytes)) }
    }

    private static func snapshot(of ring: KeyRing) throws -> Snapshot {
        var keys: [Int: NKeyPair] = [:]
        for generation in ring.generations {
            guard let secret = generation.secret else { continue }
            keys[generation.number] = try signingKey(secret: secret)
        }
        return Snapshot(ring: ring, keys: keys)
    }
}
