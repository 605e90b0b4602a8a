// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import HTTPTypes
import VettIDCore

/// Finds the member a request acts for: from `Authorization: DPoP …` with a `DPoP` proof, `Authorization: Bearer …`,
/// or the `auth-token` cookie.
///
/// A token bound to a DPoP key (`cnf.jkt`) must come with the DPoP scheme and a proof by that key (`ath` over the
/// token); a bound token presented as a bearer token or cookie is refused (RFC 9449 §7.2).
struct MemberAuthenticator: Sendable {
    let auth: AuthService
    let dpop: DPoPGuard

    /// The member and session of `info`'s credentials.
    /// - Throws: ``APIFailure`` 401 `invalid_token` (missing, wrong scheme, expired or revoked), 400
    ///   `invalid_request` for more than one `Authorization` header, or a DPoP proof's failure.
    func authenticate(_ info: RequestInfo) async throws -> AuthService.Authenticated {
        let authorizations = info.headers(.authorization)
        guard authorizations.count <= 1 else { throw APIFailure.invalidRequest("more than one Authorization header") }
        var scheme: AuthorizationHeader.Scheme?
        let token: String
        if let header = authorizations.first {
            guard let authorization = AuthorizationHeader(header), let named = authorization.scheme else {
                throw APIFailure.invalidToken()
            }
            scheme = named
            token = authorization.credentials
        } else if let cookie = info.cookie(AuthCookie.name) {
            token = cookie
        } else {
            throw APIFailure.invalidToken("authentication is required")
        }
        let (authenticated, boundJKT) = try await auth.authenticate(accessToken: token)
        switch (scheme, boundJKT) {
        case (.dpop, let jkt?):
            _ = try await dpop.verify(info, endpoint: .resource, accessToken: token, boundJKT: jkt)
        case (.dpop, nil):
            throw APIFailure.invalidToken("this token is not bound to a DPoP key; send it with the Bearer scheme")
        case (_, .some):
            throw APIFailure.invalidToken("this token is bound to a DPoP key and must be sent with the DPoP scheme")
        default:
            break
        }
        return authenticated
    }
}
