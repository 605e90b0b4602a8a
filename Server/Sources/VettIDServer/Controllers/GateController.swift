// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import HTTPTypes
import Hummingbird
import OpenAPIRuntime
import VettIDAPI
import VettIDCore
import VettIDCrypto
import VettIDVerification

/// The Gate's token endpoints: attestation challenges, App Attest key registration, and Gate tokens
/// (docs/protocol.md §8). The proxy itself is a raw streaming route (``GateProxy``) that ``routes()`` returns.
struct GateController: Sendable {
    let gate: GateService
    let dpop: DPoPGuard
    let proxy: GateProxy

    /// The proxy's streaming routes, `/proxy/{upstream}/**` under every method it forwards.
    func routes() -> RouteCollection<AppRequestContext> {
        let routes = RouteCollection(context: AppRequestContext.self)
        proxy.register(on: routes)
        return routes
    }

    func createAttestationChallenge(_ input: Operations.CreateAttestationChallenge.Input) async throws
        -> Operations.CreateAttestationChallenge.Output
    {
        var purpose = GateService.Purpose.attest
        if case .json(let body) = input.body, let requested = body.purpose {
            purpose = requested == .assert ? .assert : .attest
        }
        let info = try RequestInfo.required
        let issued = try await gate.issueChallenge(purpose: purpose)
        info.responseHeaders.append(.cacheControl, "no-store")
        return .created(.init(body: .json(.init(challenge: issued.challenge, expiresIn: issued.expiresIn))))
    }

    func registerAttestation(_ input: Operations.RegisterAttestation.Input) async throws
        -> Operations.RegisterAttestation.Output
    {
        guard case .json(let body) = input.body else { throw APIFailure.invalidRequest("expected a JSON body") }
        let info = try RequestInfo.required
        let proof = try await dpop.verify(info, endpoint: .token)
        let deviceKey: P256PublicJWK
        do {
            deviceKey = try P256PublicJWK(x: body.deviceKeyJwk.x, y: body.deviceKeyJwk.y)
        } catch {
            throw APIFailure.invalidRequest("device_key_jwk is not a P-256 public key")
        }
        let registered = try await gate.register(
            keyID: body.keyId, attestationObject: body.attestationObject, challenge: body.challenge,
            deviceKey: deviceKey, proofJKT: proof.thumbprint, logger: info.logger
        )
        let environment =
            Components.Schemas.AttestationRegisterResponse.EnvironmentPayload(
                rawValue: registered.environment) ?? .production
        return .created(
            .init(body: .json(.init(keyId: registered.keyID, status: .registered, environment: environment))))
    }

    func createGateToken(_ input: Operations.CreateGateToken.Input) async throws -> Operations.CreateGateToken.Output {
        guard case .json(let body) = input.body else { throw APIFailure.invalidRequest("expected a JSON body") }
        let info = try RequestInfo.required
        let proof = try await dpop.verify(info, endpoint: .token)
        let issued: GateService.Issued
        switch body.grantType {
        case .urn_colon_vettid_colon_params_colon_grantType_colon_appAttest:
            guard let keyID = body.keyId, let challenge = body.challenge, let assertion = body.assertion else {
                throw APIFailure.invalidRequest("the app-attest grant needs key_id, challenge and assertion")
            }
            issued = try await gate.mintWithAssertion(
                keyID: keyID, challenge: challenge, assertion: assertion, proofJKT: proof.thumbprint,
                logger: info.logger)
        case .urn_colon_vettid_colon_params_colon_grantType_colon_development:
            guard let token = body.developmentToken else {
                throw APIFailure.invalidRequest("the development grant needs development_token")
            }
            issued = try await gate.mintWithDevelopmentToken(token, proofJKT: proof.thumbprint)
        }
        info.responseHeaders.append(.cacheControl, "no-store")
        return .ok(
            .init(body: .json(.init(accessToken: issued.accessToken, tokenType: "DPoP", expiresIn: issued.expiresIn))))
    }
}
