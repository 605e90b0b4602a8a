// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation
import JWTKit

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
    private let keys: TokenSigningKeys

    /// Signs and verifies with the `vault` keys of `keys`.
    public init(keys: TokenSigningKeys, issuer: String) {
        self.issuer = issuer
        self.keys = keys
    }

    /// Signs a token of `kind` for `lifetime`, bound to `jkt`.
    public func issue(
        _ kind: Kind, userGUID: String, contextID: String, boundJKT jkt: String, lifetime: Duration, now: Date
    ) async throws -> String {
        var claims = DeviceBoundTokenClaims(
            issuer: issuer, audience: kind.audience, subject: userGUID, jkt: jkt, lifetime: lifetime, now: now)
        claims.ctx = contextID
        return try await keys.sign(claims, purpose: .vault, now: now)
    }

    /// Verifies signature, expiry, issuer and the kind's audience; `nil` for anything else.
    public func verify(_ token: String, as kind: Kind, now: Date) async -> Verified? {
        guard
            let (claims, _) = await keys.verifyDeviceBound(
                token, purpose: .vault, issuer: issuer, audience: kind.audience, now: now),
            let contextID = claims.ctx
        else { return nil }
        return Verified(userGUID: claims.sub.value, contextID: contextID, boundJKT: claims.cnf.jkt)
    }
}
