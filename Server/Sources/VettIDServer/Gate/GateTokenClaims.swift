import Foundation
import JWTKit

/// The claims of a Gate access token: a short-lived ES256 JWT bound to a DPoP key (`cnf.jkt`), with an
/// audience (`vettid-gate`) that member endpoints do not accept.
struct GateTokenClaims: JWTPayload, Equatable {
    struct Confirmation: Codable, Equatable, Sendable {
        let jkt: String
    }

    let iss: IssuerClaim
    let aud: AudienceClaim
    /// `appattest:<key id>` or `development`.
    let sub: SubjectClaim
    let jti: IDClaim
    let iat: IssuedAtClaim
    let exp: ExpirationClaim
    let cnf: Confirmation
    /// `production`, `development`, `software` (App Attest) or `development-token`.
    let env: String

    func verify(using algorithm: some JWTAlgorithm) async throws {
        try exp.verifyNotExpired()
    }
}
