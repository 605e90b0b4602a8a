// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import Foundation
import JWTKit
import VettIDCore
import VettIDCrypto

/// The claims of every short-lived token bound to a device's DPoP key (`cnf.jkt`): Gate access tokens and the
/// enrollment, action and vault session tokens. The audience names the kind, so one kind is never accepted as
/// another; `env` (Gate) and `ctx` (vault: session, action or credential id) carry what each kind adds.
struct DeviceBoundTokenClaims: JWTPayload, Equatable {
    struct Confirmation: Codable, Equatable, Sendable {
        let jkt: String
    }

    let iss: IssuerClaim
    let aud: AudienceClaim
    let sub: SubjectClaim
    let jti: IDClaim
    let iat: IssuedAtClaim
    let exp: ExpirationClaim
    let cnf: Confirmation
    /// Gate tokens: `production`, `development`, `software` (App Attest) or `development-token`.
    var env: String?
    /// Vault tokens: the enrollment session id, the action id, or the credential id.
    var ctx: String?

    /// Claims issued at `now` (whole seconds) for `lifetime`, with a random `jti`.
    init(issuer: String, audience: String, subject: String, jkt: String, lifetime: Duration, now: Date) {
        let now = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        iss = .init(value: issuer)
        aud = .init(value: [audience])
        sub = .init(value: subject)
        jti = .init(value: Base64URL.encode(SymmetricKey(size: .bits128).withUnsafeBytes { Array($0) }))
        iat = .init(value: now)
        exp = .init(value: now.addingTimeInterval(TimeInterval(lifetime.components.seconds)))
        cnf = .init(jkt: jkt)
    }

    /// Nothing beyond the signature here: the verifier checks `exp` against the server's clock (`WallClock`),
    /// which tests move.
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

extension TokenSigningKeys {
    /// Verifies a device-bound token's signature (a `purpose` key the ring holds) and expiry, its issuer and that
    /// `audience` is its only audience, with the generation that signed it; `nil` for anything else (including
    /// tokens over 4 KiB).
    func verifyDeviceBound(_ token: String, purpose: Purpose, issuer: String, audience: String, now: Date) async
        -> (claims: DeviceBoundTokenClaims, generation: Int)?
    {
        guard token.utf8.count <= 4096,
            let (claims, generation) = await verify(token, as: DeviceBoundTokenClaims.self, purpose: purpose),
            claims.exp.value > now, claims.iss.value == issuer, claims.aud.value == [audience]
        else { return nil }
        return (claims, generation)
    }
}
