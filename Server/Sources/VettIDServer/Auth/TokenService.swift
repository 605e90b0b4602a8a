// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
public import Foundation
import JWTKit
import VettIDCrypto

/// Issues and verifies member access tokens, and mints refresh tokens.
public struct TokenService: Sendable {
    /// Lifetimes and names.
    public struct Configuration: Sendable {
        /// Access-token lifetime.
        public var accessTokenLifetime: Duration
        /// Lifetime of each refresh token (sliding: every rotation issues a fresh one).
        public var refreshTokenLifetime: Duration
        /// Absolute lifetime of a login session, whatever the refreshes.
        public var sessionLifetime: Duration
        /// `iss` and `aud` of access tokens.
        public var issuer: String
        /// How long this instance trusts a session it found active before reading it again; a session ended through
        /// another instance stays usable here at most this long (ended here, it stops at once). Zero: read every
        /// time.
        public var sessionCacheLifetime: Duration

        public init(
            accessTokenLifetime: Duration = .seconds(900),
            refreshTokenLifetime: Duration = .seconds(14 * 86_400),
            sessionLifetime: Duration = .seconds(90 * 86_400),
            issuer: String = "vettid",
            sessionCacheLifetime: Duration = .seconds(2)
        ) {
            self.accessTokenLifetime = accessTokenLifetime
            self.refreshTokenLifetime = refreshTokenLifetime
            self.sessionLifetime = sessionLifetime
            self.issuer = issuer
            self.sessionCacheLifetime = sessionCacheLifetime
        }
    }

    /// What a verified access token says.
    public struct Verified: Sendable, Equatable {
        public let memberID: UUID
        public let sessionID: UUID
        public let boundJKT: String?
    }

    public let configuration: Configuration
    private let keys: TokenSigningKeys
    private let verified = VerifiedTokenCache<Verified>()

    /// Signs and verifies with the `access` keys of `keys`.
    public init(configuration: Configuration, keys: TokenSigningKeys) {
        self.configuration = configuration
        self.keys = keys
    }

    /// Signs an access token for a member session.
    public func issueAccessToken(memberID: UUID, sessionID: UUID, boundJKT: String?, now: Date) async throws -> String {
        // NumericDate in whole seconds: fractional values are legal but trip up other verifiers.
        let now = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        let claims = AccessTokenClaims(
            iss: .init(value: configuration.issuer),
            aud: .init(value: [configuration.issuer]),
            sub: .init(value: memberID.uuidString.lowercased()),
            sid: sessionID.uuidString.lowercased(),
            jti: .init(value: Base64URL.encode(SymmetricKey(size: .bits128).withUnsafeBytes { Array($0) })),
            iat: .init(value: now),
            exp: .init(value: now.addingTimeInterval(configuration.accessTokenLifetime.seconds)),
            cnf: boundJKT.map { .init(jkt: $0) }
        )
        return try await keys.sign(claims, purpose: .access, now: now)
    }

    /// Verifies signature, expiry, issuer and audience; `nil` for anything else.
    public func verifyAccessToken(_ token: String, now: Date) async -> Verified? {
        guard token.utf8.count <= 4096 else { return nil }
        // A token verified before costs a hash (see VerifiedTokenCache); its own expiry still applies.
        if let known = verified.value(for: token, now: now, keys: keys) { return known }
        guard let (claims, generation) = await keys.verify(token, as: AccessTokenClaims.self, purpose: .access) else {
            return nil
        }
        guard claims.exp.value > now, claims.iss.value == configuration.issuer,
            claims.aud.value.contains(configuration.issuer),
            let member = UUID(uuidString: claims.sub.value), let session = UUID(uuidString: claims.sid)
        else { return nil }
        let result = Verified(memberID: member, sessionID: session, boundJKT: claims.cnf?.jkt)
        verified.remember(result, for: token, generation: generation, expiresAt: claims.exp.value, now: now)
        return result
    }

    /// A new opaque refresh token (256 random bits) and the hash under which it is stored.
    public func mintRefreshToken() -> (token: String, hash: String) {
        let token = "rt_" + Base64URL.encode(SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) })
        return (token, Self.hash(refreshToken: token))
    }

    /// The stored form of a refresh token: hex SHA-256. Only hashes reach the database.
    public static func hash(refreshToken: String) -> String {
        Hex.encode(SHA256.hash(data: Array(refreshToken.utf8)))
    }
}

extension Duration {
    /// The duration in (fractional) seconds.
    var seconds: TimeInterval {
        TimeInterval(components.seconds) + TimeInterval(components.attoseconds) / 1e18
    }
}
