// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation
import JWTKit

/// Issues and verifies Gate access tokens (ES256 JWTs, `token_type: DPoP`).
///
/// The signing key is derived from the master key for this purpose only, and the audience is `vettid-gate`,
/// so a Gate token is no member token and a member token is no Gate token.
public struct GateTokenService: Sendable {
    /// The audience of every Gate token.
    public static let audience = "vettid-gate"

    /// What a verified Gate token says.
    public struct Verified: Sendable, Equatable {
        /// `appattest:<key id>` or `development`.
        public let subject: String
        /// The thumbprint of the DPoP key the token is bound to.
        public let boundJKT: String
        /// The environment the token was minted in.
        public let environment: String
    }

    let issuer: String
    let lifetime: Duration
    private let keys: TokenSigningKeys
    private let verified = VerifiedTokenCache<Verified>()

    /// Signs and verifies with the `gate` keys of `keys`.
    public init(keys: TokenSigningKeys, issuer: String, lifetime: Duration) {
        self.issuer = issuer
        self.lifetime = lifetime
        self.keys = keys
    }

    /// The token lifetime in whole seconds (`expires_in`).
    public var expiresIn: Int { Int(lifetime.components.seconds) }

    /// Signs a Gate token bound to `jkt`.
    public func issue(subject: String, boundJKT jkt: String, environment: String, now: Date) async throws -> String {
        var claims = DeviceBoundTokenClaims(
            issuer: issuer, audience: Self.audience, subject: subject, jkt: jkt, lifetime: lifetime, now: now)
        claims.env = environment
        return try await keys.sign(claims, purpose: .gate, now: now)
    }

    /// Verifies signature, expiry, issuer and audience; `nil` for anything else.
    public func verify(_ token: String, now: Date) async -> Verified? {
        // A token verified before costs a hash (see VerifiedTokenCache); its own expiry still applies.
        if let known = verified.value(for: token, now: now, keys: keys) { return known }
        guard
            let (claims, generation) = await keys.verifyDeviceBound(
                token, purpose: .gate, issuer: issuer, audience: Self.audience, now: now),
            let environment = claims.env
        else { return nil }
        let result = Verified(subject: claims.sub.value, boundJKT: claims.cnf.jkt, environment: environment)
        verified.remember(result, for: token, generation: generation, expiresAt: claims.exp.value, now: now)
        return result
    }
}
