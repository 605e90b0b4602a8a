// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes
import Logging
import OpenAPIRuntime
import VettIDAPI
import VettIDCore
import VettIDCrypto
import VettIDVerification

/// The server's implementation of the generated `APIProtocol`: decodes nothing itself (the generated code did),
/// delegates to the services, and maps their results onto the generated output types.
struct APIHandler: APIProtocol {
    let components: ServerComponents
    let cookies: AuthCookie

    var auth: AuthService { components.auth }

    /// The current request's facts (set by ``RequestInfoMiddleware``).
    var request: RequestInfo {
        get throws {
            guard let info = RequestInfo.current else {
                throw APIFailure(.internalServerError, .internalError, "request context missing")
            }
            return info
        }
    }

    // MARK: Health

    func getHealth(_ input: Operations.GetHealth.Input) async throws -> Operations.GetHealth.Output {
        .ok(.init(body: .json(.init(status: "ok", version: VettIDServerInfo.version))))
    }

    func getReadiness(_ input: Operations.GetReadiness.Input) async throws -> Operations.GetReadiness.Output {
        var connected: (@Sendable () -> Bool)? = nil
        if let publisher = components.natsPublisher {
            connected = { publisher.isConnected }
        }
        let report = await ReadinessProbe(store: components.store, natsConnected: connected).check()
        typealias Checks = Components.Schemas.Readiness.ChecksPayload
        let nats: Checks.NatsPayload
        switch report.natsConnected {
        case .none: nats = .notConfigured
        case .some(true): nats = .ok
        case .some(false): nats = .unavailable
        }
        let checks = Checks(store: report.storeOK ? .ok : .failed, nats: nats)
        guard report.isReady else {
            (try? request)?.logger.warning(
                "not ready", metadata: ["store_ok": "\(report.storeOK)", "nats": "\(nats.rawValue)"])
            return .serviceUnavailable(.init(body: .json(.init(status: .notReady, checks: checks))))
        }
        return .ok(.init(body: .json(.init(status: .ready, checks: checks))))
    }

    // MARK: Member auth

    func register(_ input: Operations.Register.Input) async throws -> Operations.Register.Output {
        guard case .json(let body) = input.body else { throw APIFailure.invalidRequest("expected a JSON body") }
        let info = try request
        let name = try MemberName(first: body.firstName, last: body.lastName)
        let member = try await auth.register(
            email: body.email, password: body.password, name: name, origin: info.securityOrigin, logger: info.logger
        )
        return .created(.init(body: .json(.init(user: member.api, message: "Account created."))))
    }

    func login(_ input: Operations.Login.Input) async throws -> Operations.Login.Output {
        guard case .json(let body) = input.body else { throw APIFailure.invalidRequest("expected a JSON body") }
        let info = try request
        let jkt = try await proofThumbprintIfPresent(info)
        let issued = try await auth.login(
            email: body.email, password: body.password, dpopJKT: jkt, origin: info.securityOrigin, logger: info.logger
        )
        return .ok(try tokenIssued(issued))
    }

    func refresh(_ input: Operations.Refresh.Input) async throws -> Operations.Refresh.Output {
        guard case .json(let body) = input.body else { throw APIFailure.invalidRequest("expected a JSON body") }
        let info = try request
        let jkt = try await proofThumbprintIfPresent(info)
        let issued = try await auth.refresh(refreshToken: body.refreshToken, dpopJKT: jkt, logger: info.logger)
        return .ok(try tokenIssued(issued))
    }

    func logout(_ input: Operations.Logout.Input) async throws -> Operations.Logout.Output {
        let authenticated = try await authenticate()
        try await auth.logout(authenticated, origin: try request.securityOrigin, logger: try request.logger)
        try request.responseHeaders.append(.setCookie, cookies.clearing())
        return .ok(.init(body: .json(.init(message: "Logged out."))))
    }

    func getCurrentUser(_ input: Operations.GetCurrentUser.Input) async throws -> Operations.GetCurrentUser.Output {
        let authenticated = try await authenticate()
        return .ok(.init(body: .json(.UserResponse(.init(user: authenticated.member.api)))))
    }

    // MARK: Helpers

    /// Authenticates the request from `Authorization: DPoP …` with a `DPoP` proof, `Authorization: Bearer …`, or
    /// the `auth-token` cookie.
    ///
    /// A token bound to a DPoP key (`cnf.jkt`) must come with the DPoP scheme and a proof by that key (`ath`
    /// over the token); a bound token presented as a bearer token or cookie is refused (RFC 9449 §7.2).
    func authenticate() async throws -> AuthService.Authenticated {
        let info = try request
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
            _ = try await components.dpop.verify(info, endpoint: .resource, accessToken: token, boundJKT: jkt)
        case (.dpop, nil):
            throw APIFailure.invalidToken("this token is not bound to a DPoP key; send it with the Bearer scheme")
        case (_, .some):
            throw APIFailure.invalidToken("this token is bound to a DPoP key and must be sent with the DPoP scheme")
        default:
            break
        }
        return authenticated
    }

    /// Verifies the request's DPoP proof at a token endpoint when it carries one, returning its key thumbprint.
    func proofThumbprintIfPresent(_ info: RequestInfo) async throws -> String? {
        guard DPoPGuard.hasProof(info) else { return nil }
        return try await components.dpop.verify(info, endpoint: .token).thumbprint
    }

    private func tokenIssued(_ issued: AuthService.Issued) throws -> Components.Responses.TokenIssued {
        try request.responseHeaders.append(.setCookie, cookies.setting(issued.accessToken, maxAge: issued.expiresIn))
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
