import Foundation
import JWTKit

/// The claims of an enrollment, action or vault session token: a short-lived ES256 JWT bound to the device's
/// DPoP key (`cnf.jkt`). The audience names the kind, so one kind is never accepted as another.
struct VaultTokenClaims: JWTPayload, Equatable {
    struct Confirmation: Codable, Equatable, Sendable {
        let jkt: String
    }

    let iss: IssuerClaim
    let aud: AudienceClaim
    /// The user guid (the member's id).
    let sub: SubjectClaim
    let jti: IDClaim
    let iat: IssuedAtClaim
    let exp: ExpirationClaim
    let cnf: Confirmation
    /// The enrollment session id, the action id, or the credential id (by kind).
    let ctx: String

    func verify(using algorithm: some JWTAlgorithm) async throws {
        try exp.verifyNotExpired()
    }
}
