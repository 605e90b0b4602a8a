// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation
public import HTTPTypes
public import OpenAPIRuntime
import VettIDCore

/// Signs a fresh `DPoP` proof for every request at send time, replacing any `DPoP` value already set.
///
/// Used by clients whose every call is proof-bound (``GateClient``): the proof is made for the exact target URI
/// (without query and fragment) and the newest nonce, with `ath` when the request carries
/// `Authorization: DPoP <token>`. Generated operations whose `dpop` header input is required receive their value
/// here, so callers pass an empty string for it.
public struct DPoPProofMiddleware: ClientMiddleware {
    let proofProvider: any DPoPProofProvider

    /// Creates the middleware.
    public init(proofProvider: any DPoPProofProvider) {
        self.proofProvider = proofProvider
    }

    /// Adds the proof and forwards the request.
    public func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        let url = AuthHeaderMiddleware.requestURL(request, baseURL: baseURL)
        do {
            request.headerFields[DPoPNonceChallenge.proofField] = try await proofProvider.proof(
                method: request.method,
                url: url,
                accessToken: DPoPNonceMiddleware.accessToken(in: request.headerFields[.authorization])
            )
        } catch {
            throw APIError(code: .invalidDPoPProof, description: "Could not create a DPoP proof.", underlying: error)
        }
        return try await next(request, body, baseURL)
    }
}
