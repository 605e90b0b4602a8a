// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import HTTPTypes
import VettIDCore

/// Checks the device-bound tokens of the vault flows (enrollment, action and vault session tokens): each comes as
/// `Authorization: DPoP <token>` with a proof by the key the token is bound to.
struct DeviceTokenAuthenticator: Sendable {
    let tokens: VaultTokenService
    let dpop: DPoPGuard
    let clock: any WallClock

    /// Authenticates `Authorization: DPoP <token>` of `kind` with a proof by the key the token is bound to.
    /// A bearer presentation, a token of another kind, an expired or forged token are 401 `invalid_token`.
    func authenticate(_ kind: VaultTokenService.Kind, _ info: RequestInfo) async throws -> VaultTokenService.Verified {
        guard let token = Self.token(of: info) else {
            throw APIFailure.invalidDeviceToken("the \(kind.rawValue) token is DPoP-bound and must use the DPoP scheme")
        }
        guard let verified = await tokens.verify(token, as: kind, now: clock.now()) else {
            throw APIFailure.invalidDeviceToken("the \(kind.rawValue) token is invalid or expired")
        }
        return try await prove(token, verified, info)
    }

    /// The token of the request's single `Authorization: DPoP <token>` header; `nil` for another scheme or none.
    static func token(of info: RequestInfo) -> String? {
        let authorizations = info.headers(.authorization)
        guard authorizations.count == 1, let header = authorizations.first else { return nil }
        guard let authorization = AuthorizationHeader(header), authorization.scheme == .dpop else { return nil }
        return authorization.credentials
    }

    /// Checks the request's DPoP proof against a verified device token (`ath`, and the key it is bound to).
    func prove(_ token: String, _ verified: VaultTokenService.Verified, _ info: RequestInfo) async throws
        -> VaultTokenService.Verified
    {
        _ = try await dpop.verify(info, endpoint: .resource, accessToken: token, boundJKT: verified.boundJKT)
        return verified
    }
}
