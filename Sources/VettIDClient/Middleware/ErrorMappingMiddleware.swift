// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation
public import HTTPTypes
public import OpenAPIRuntime
import VettIDCore

/// Turns every non-2xx response into a thrown ``APIError`` parsed from the `Error` body.
///
/// Place it inside the retry and refresh middlewares (later in the chain) so that they see typed errors.
/// The generated client therefore only ever decodes success responses.
public struct ErrorMappingMiddleware: ClientMiddleware {
    /// Creates the middleware.
    public init() {}

    /// Forwards the request and throws an ``APIError`` for any status outside 200-299.
    public func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let (response, responseBody) = try await next(request, body, baseURL)
        guard response.status.kind != .successful else { return (response, responseBody) }
        var bytes = Data()
        if let responseBody {
            bytes = (try? await Data(collecting: responseBody, upTo: APIError.maximumErrorBodySize)) ?? Data()
        }
        throw Self.error(response: response, body: bytes)
    }

    /// The ``APIError`` for a failed response. A 401 whose body has no error code but whose
    /// `WWW-Authenticate: DPoP error="…"` names one (RFC 9449 §7.1) gets that code, so that a `use_dpop_nonce`
    /// or `invalid_token` challenge is recognised even without a JSON body.
    static func error(response: HTTPResponse, body: Data) -> APIError {
        var error = APIError(response: response, body: body)
        if error.code == .httpError, response.status.code == 401,
            let code = response.headerFields[values: .wwwAuthenticate].lazy.compactMap(
                DPoPNonceChallenge.dpopError(inWWWAuthenticate:)
            ).first,
            !code.isEmpty
        {
            error.code = APIError.Code(rawValue: code)
        }
        return error
    }
}
