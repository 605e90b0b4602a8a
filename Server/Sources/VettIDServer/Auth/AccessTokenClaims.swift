// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import JWTKit
import VettIDCore

/// The claims of a member access token (a short-lived ES256 JWT).
///
/// `sid` names the session, which the server checks on every use so that logout and refresh-token reuse
/// cut tokens off at once; `cnf.jkt` binds the token to a DPoP key (RFC 9449 §6.1).
struct AccessTokenClaims: JWTPayload, Equatable {
    struct Confirmation: Codable, Equatable, Sendable {
        let jkt: String
    }

    let iss: IssuerClaim
    let aud: AudienceClaim
    let sub: SubjectClaim
    let sid: String
    let jti: IDClaim
    let iat: IssuedAtClaim
    let exp: ExpirationClaim
    let cnf: Confirmation?

    /// Nothing beyond the signature here: the verifier checks `exp` against the server's clock (`WallClock`),
    /// which tests move.
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
