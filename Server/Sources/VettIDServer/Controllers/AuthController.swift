// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes
import OpenAPIRuntime
import VettIDAPI
import VettIDCore
import VettIDVerification

/// Member accounts and their tokens (docs/protocol.md §2): register, login, refresh, logout and `GET /auth/me`.
///
/// One of the feature controllers behind ``APIOperations``: it implements the operations of its area with the
/// generated input and output types and is built from exactly the services it uses.
struct AuthController: Sendable {
    let auth: AuthService
    let members: MemberAuthenticator
    let dpop: DPoPGuard
    let cookies = AuthCookie()

    func register(_ input: Operations.Register.Input) async throws -> Operations.Register.Output {
        guard case .json(let body) = input.body else { throw APIFailure.invalidRequest("expected a JSON body") }
        let info = try RequestInfo.required
        let name = try MemberName(first: body.firstName, last: body.lastName)
        let member = try await auth.register(
            email: body.email, password: body.password, name: name, origin: info.securityOrigin, logger: info.logger
        )
        return .created(.init(body: .json(.init(user: member.api, message: "Account created."))))
    }

    func login(_ input: Operations.Login.Input) async throws -> Operations.Login.Output {
        guard case .json(let body) = input.body else { throw APIFailure.invalidRequest("expected a JSON body") }
        let info = try RequestInfo.required
        let jkt = try await proofThumbprintIfPresent(info)
        let issued = try await auth.login(
            email: body.email, password: body.password, dpopJKT: jkt, origin: info.securityOrigin, logger: info.logger
        )
        return .ok(tokenIssued(issued, info))
    }

    func refresh(_ input: Operations.Refresh.Input) async throws -> Operations.Refresh.Output {
        guard case .json(let body) = input.body else { throw APIFailure.invalidRequest("expected a JSON body") }
        let info = try RequestInfo.required
        let jkt = try await proofThumbprintIfPresent(info)
        let issued = try await auth.refresh(refreshToken: body.refreshToken, dpopJKT: jkt, logger: info.logger)
        return .ok(tokenIssued(issued, info))
    }

    func logout(_ input: Operations.Logout.Input) async throws -> Operations.Logout.Output {
        let info = try RequestInfo.required
        let authenticated = try await members.authenticate(info)
        try await auth.logout(authenticated, origin: info.securityOrigin, logger: info.logger)
        info.responseHeaders.append(.setCookie, cookies.clearing())
        return .ok(.init(body: .json(.init(message: "Logged out."))))
    }

    func getCurrentUser(_ input: Operations.GetCurrentUser.Input) async throws -> Operations.GetCurrentUser.Output {
        let authenticated = try await members.authenticate(try RequestInfo.required)
        return .ok(.init(body: .json(.UserResponse(.init(user: authenticated.member.api)))))
    }

    /// Verifies the request's DPoP proof at a token endpoint when it carries one, returning its key thumbprint.
    func proofThumbprintIfPresent(_ info: RequestInfo) async throws -> String? {
        guard DPoPGuard.hasProof(info) else { return nil }
        return try await dpop.verify(info, endpoint: .token).thumbprint
    }

    /// The token response of a sign-in (password or passkey) or refresh, with the `auth-token` cookie.
    func tokenIssued(_ issued: AuthService.Issued, _ info: RequestInfo) -> Components.Responses.TokenIssued {
        info.responseHeaders.append(.setCookie, cookies.setting(issued.accessToken, maxAge: issued.expiresIn))
        return .init(
            body: .json(
                .init(
                    accessToken: issued.accessToken, tokenType: issued.tokenType, expiresIn: issued.expiresIn,
                    refreshToken: issued.refreshToken, refreshTokenExpiresIn: issued.refreshExpiresIn,
                    user: issued.member.api
                )
            )
        )
    }
}

extension Member {
    /// The wire form of a member.
    var api: Components.Schemas.User {
        .init(
            id: id.uuidString.lowercased(), email: email, firstName: firstName, lastName: lastName, createdAt: createdAt
        )
    }
}
