public import Crypto
public import Foundation
import JWTKit
import VettIDCrypto

/// Issues and verifies the device tokens of the vault flows, all DPoP-bound (`token_type: DPoP`).
///
/// - enrollment token (`vettid-enrollment`): the three steps after `start`; `ctx` is the session id.
/// - action token (`vettid-action`): auth execute, single use through the action row; `ctx` is the action id.
/// - vault session token (`vettid-vault`): vault and NATS endpoints; `ctx` is the credential id.
///
/// The signing key is derived from the master key for this purpose only, so none of these is a member or
/// Gate token and no member or Gate token is one of these.
public struct VaultTokenService: Sendable {
    /// The kinds of vault token.
    public enum Kind: String, Sendable, CaseIterable {
        case enrollment
        case action
        case session

        var audience: String {
            switch self {
            case .enrollment: "vettid-enrollment"
            case .action: "vettid-action"
            case .session: "vettid-vault"
            }
        }
    }

    /// What a verified token says.
    public struct Verified: Sendable, Equatable {
        public let userGUID: String
        public let contextID: String
        public let boundJKT: String
    }

    let issuer: String
    private let keys: JWTKeyCollection

    /// Creates the service with an ES256 signing key.
    public init(signingKey: P256.Signing.PrivateKey, issuer: String) async throws {
        self.issuer = issuer
        self.keys = JWTKeyCollection()
        await keys.add(ecdsa: try ES256PrivateKey(backing: signingKey), kid: "vault-1")
    }

    /// Signs a token of `kind` for `lifetime`, bound to `jkt`.
    public func issue(
        _ kind: Kind, userGUID: String, contextID: String, boundJKT jkt: String, lifetime: Duration, now: Date
    ) async throws -> String {
        let now = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        let claims = VaultTokenClaims(
            iss: .init(value: issuer), aud: .init(value: [kind.audience]), sub: .init(value: userGUID),
            jti: .init(value: Base64URL.encode(SymmetricKey(size: .bits128).withUnsafeBytes { Array($0) })),
            iat: .init(value: now), exp: .init(value: now.addingTimeInterval(TimeInterval(lifetime.components.seconds))),
            cnf: .init(jkt: jkt), ctx: contextID
        )
        return try await keys.sign(claims, kid: "vault-1")
    }

    /// Verifies signature, expiry, issuer and the kind's audience; `nil` for anything else.
    public func verify(_ token: String, as kind: Kind) async -> Verified? {
        guard token.utf8.count <= 4096, let claims = try? await keys.verify(token, as: VaultTokenClaims.self),
            claims.iss.value == issuer, claims.aud.value == [kind.audience]
        else { return nil }
        return Verified(userGUID: claims.sub.value, contextID: claims.ctx, boundJKT: claims.cnf.jkt)
    }
}
