// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import Foundation
import JWTKit
import NIOConcurrencyHelpers
import VettIDCore
import VettIDCrypto

/// The ES256 keys that sign and verify the server's tokens, one per ``Purpose`` in every generation of the
/// token-signing ``KeyRing``, swapped at run time when the ring changes (``reload(_:)``).
///
/// A token's `kid` is `<purpose>-<generation>` (`access-1`, `gate-2`, …); a token whose `kid` names another
/// purpose or a generation the ring no longer holds is refused before any signature check, and the collections
/// have no default key, so a missing or unknown `kid` never falls back to one. Generation 1 is what servers used
/// before rotation existed: the access key from `keys/access-token.p256`, Gate and vault keys derived from the
/// master key. Later generations derive each purpose's key from the generation's secret with HKDF-SHA256
/// (`info = "vettid/<purpose>-token-signing"`).
public final class TokenSigningKeys: Sendable {
    /// What a token is for; each purpose has its own key in every generation.
    public enum Purpose: String, Sendable, CaseIterable {
        /// Member access tokens.
        case access
        /// Gate tokens.
        case gate
        /// Enrollment, action and vault session tokens.
        case vault
    }

    private struct Snapshot {
        let ring: KeyRing
        let collections: [Purpose: JWTKeyCollection]
        /// The vault's handshake signing key of each generation (not a JWT key: see ``vaultSessionKey(now:)``).
        let vaultSessionKeys: [Int: P256.Signing.PrivateKey]
    }

    private let keys: ServerKeys
    private let state: NIOLockedValueBox<Snapshot>

    private init(keys: ServerKeys, snapshot: Snapshot) {
        self.keys = keys
        self.state = NIOLockedValueBox(snapshot)
    }

    /// The keys of `ring`'s generations; generation 1 comes from `keys`.
    public static func make(ring: KeyRing, keys: ServerKeys) async throws -> TokenSigningKeys {
        TokenSigningKeys(keys: keys, snapshot: try await snapshot(of: ring, keys: keys))
    }

    /// Keys for tests and the in-memory demo: generation 1 of fresh ephemeral keys.
    public static func ephemeral() async throws -> TokenSigningKeys {
        try await make(ring: .original, keys: .ephemeral())
    }

    /// Swaps in the keys of `ring`: new generations verify at once, the current one signs, removed ones stop
    /// verifying.
    public func reload(_ ring: KeyRing) async throws {
        let unchanged = state.withLockedValue { $0.ring == ring }
        guard !unchanged else { return }
        let next = try await Self.snapshot(of: ring, keys: keys)
        state.withLockedValue { $0 = next }
    }

    /// The ring in use.
    public var ring: KeyRing { state.withLockedValue { $0.ring } }

    /// Whether the ring still holds `generation` (a token verified under it earlier may be trusted again).
    func holds(generation: Int) -> Bool {
        state.withLockedValue { $0.ring.generation(generation) != nil }
    }

    /// The private key of `purpose` in `generation`.
    static func privateKey(_ purpose: Purpose, generation: KeyRing.Generation, keys: ServerKeys) throws
        -> P256.Signing.PrivateKey
    {
        if generation.secret == nil, purpose == .access { return keys.accessTokenSigningKey }
        return try derivedSigningKey(label: "\(purpose.rawValue)-token-signing", generation: generation, keys: keys)
    }

    private static func snapshot(of ring: KeyRing, keys: ServerKeys) async throws -> Snapshot {
        var collections: [Purpose: JWTKeyCollection] = [:]
        for purpose in Purpose.allCases {
            let collection = JWTKeyCollection()
            for generation in ring.generations {
                await collection.add(
                    ecdsa: try ES256PrivateKey(backing: privateKey(purpose, generation: generation, keys: keys)),
                    kid: JWKIdentifier(string: kid(purpose, generation.number)))
            }
            // jwt-kit makes the first key the default, which verifies tokens with an unknown kid.
            await collection.clearDefault()
            collections[purpose] = collection
        }
        var vaultSessionKeys: [Int: P256.Signing.PrivateKey] = [:]
        for generation in ring.generations {
            vaultSessionKeys[generation.number] = try vaultSessionPrivateKey(generation: generation, keys: keys)
        }
        return Snapshot(ring: ring, collections: collections, vaultSessionKeys: vaultSessionKeys)
    }

    /// The vault's handshake key of `generation`: HKDF-SHA256 of the generation's secret with
    /// `info = "vettid/vault-session-signing"` (generation 1: derived from the master key), so it is never the key
    /// of a token purpose.
    static func vaultSessionPrivateKey(generation: KeyRing.Generation, keys: ServerKeys) throws
        -> P256.Signing.PrivateKey
    {
        try derivedSigningKey(label: "vault-session-signing", generation: generation, keys: keys)
    }

    /// The P-256 key `label` names in `generation`: HKDF-SHA256 of the generation's secret with
    /// `info = "vettid/<label>"`, or for generation 1 the master key's derived key of that label.
    private static func derivedSigningKey(label: String, generation: KeyRing.Generation, keys: ServerKeys) throws
        -> P256.Signing.PrivateKey
    {
        let secret =
            generation.secret.map {
                HKDF<SHA256>.deriveKey(
                    inputKeyMaterial: SymmetricKey(data: $0), info: Array("vettid/\(label)".utf8), outputByteCount: 32)
            } ?? keys.derivedKey(purpose: label)
        return try P256.Signing.PrivateKey(rawRepresentation: secret.withUnsafeBytes { Array($0) })
    }

    /// The `kid` of the vault's handshake key of `generation`: `vault-session-<generation>`.
    static func vaultSessionKid(_ generation: Int) -> String { "vault-session-\(generation)" }

    /// The key the vault signs sealed-session handshakes with now (docs/protocol.md §7.3): the current generation's.
    func vaultSessionKey(now: Date) -> (kid: String, key: P256.Signing.PrivateKey) {
        state.withLockedValue { state in
            let generation = state.ring.current(at: UnixSeconds.from(now)).number
            return (Self.vaultSessionKid(generation), state.vaultSessionKeys[generation]!)
        }
    }

    /// Every handshake key the ring holds, oldest first, with the `kid` of the current one: what apps pin. A
    /// generation added but not active yet is listed, so apps learn it before the vault signs with it.
    func vaultSessionPublicKeys(now: Date) -> (
        keys: [(kid: String, key: P256.Signing.PublicKey)], currentKid: String
    ) {
        state.withLockedValue { state in
            let keys = state.ring.generations.map { generation in
                (
                    kid: Self.vaultSessionKid(generation.number),
                    key: state.vaultSessionKeys[generation.number]!.publicKey
                )
            }
            return (keys, Self.vaultSessionKid(state.ring.current(at: UnixSeconds.from(now)).number))
        }
    }

    static func kid(_ purpose: Purpose, _ generation: Int) -> String { "\(purpose.rawValue)-\(generation)" }

    /// Signs `claims` for `purpose` with the key of the generation current at `now`.
    func sign(_ claims: some JWTPayload, purpose: Purpose, now: Date) async throws -> String {
        let now = UnixSeconds.from(now)
        let (collection, generation) = state.withLockedValue { state in
            (state.collections[purpose]!, state.ring.current(at: now).number)
        }
        return try await collection.sign(claims, kid: JWKIdentifier(string: Self.kid(purpose, generation)))
    }

    /// The claims of `token` when its `kid` names `purpose` and a generation the ring holds and that
    /// generation's key signed it, with the generation; `nil` otherwise. Claims are not checked here.
    func verify<Claims: JWTPayload>(_ token: String, as type: Claims.Type, purpose: Purpose) async
        -> (claims: Claims, generation: Int)?
    {
        guard let generation = Self.generation(ofKid: token, purpose: purpose) else { return nil }
        let collection = state.withLockedValue { state in
            state.ring.generation(generation) == nil ? nil : state.collections[purpose]
        }
        guard let collection, let claims = try? await collection.verify(token, as: type) else { return nil }
        return (claims, generation)
    }

    private struct Header: Decodable {
        let kid: String?
    }

    /// The generation a token's header `kid` names for `purpose`, read without checking anything else.
    static func generation(ofKid token: String, purpose: Purpose) -> Int? {
        guard let dot = token.utf8.firstIndex(of: UInt8(ascii: ".")),
            let bytes = Base64URL.decode(token[..<dot]),
            let kid = (try? JSONDecoder().decode(Header.self, from: Data(bytes)))?.kid
        else { return nil }
        let prefix = purpose.rawValue + "-"
        guard kid.hasPrefix(prefix), let number = Int(kid.dropFirst(prefix.count)), number >= 1 else { return nil }
        return number
    }
}
