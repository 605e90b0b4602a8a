// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes
import OpenAPIRuntime
import VettIDCore

/// Turns non-2xx answers of the Gate's JSON endpoints into ``GateError`` (status, body and the body's error code).
struct GateErrorMappingMiddleware: ClientMiddleware {
    func intercept(
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
        throw GateError.server(response: response, body: bytes, operation: operationID)
    }
}

extension GateError {
    /// The error for a non-2xx answer: status, body, and the code from the `Error` body or a
    /// `WWW-Authenticate: DPoP error="…"` challenge.
    static func server(response: HTTPResponse, body: Data, operation: String) -> GateError {
        let apiError = ErrorMappingMiddleware.error(response: response, body: body)
        let serverCode = apiError.code == .httpError ? nil : apiError.code
        return GateError(
            code: .server,
            message: "The Gate answered \(operation) with HTTP \(response.status.code).",
            status: response.status.code,
            body: body,
            serverCode: serverCode
        )
    }

    /// Converts anything a generated-client call threw into a ``GateError``.
    static func from(_ error: any Error, operation: String) -> GateError {
        var current: any Error = error
        for _ in 0..<8 {
            if let gateError = current as? GateError { return gateError }
            if let apiError = current as? APIError {
                return GateError(
                    code: .deviceKey, message: apiError.description, serverCode: apiError.code, underlying: apiError)
            }
            if let clientError = current as? ClientError {
                if clientError.response == nil, !(clientError.underlyingError is GateError),
                    !(clientError.underlyingError is APIError)
                {
                    return GateError(
                        code: .network, message: "No answer from the Gate to \(operation).",
                        underlying: clientError.underlyingError)
                }
                if clientError.response != nil, !(clientError.underlyingError is GateError) {
                    return GateError(
                        code: .invalidResponse, message: "The Gate's answer to \(operation) could not be read.",
                        underlying: clientError.underlyingError)
                }
                current = clientError.underlyingError
                continue
            }
            break
        }
        return GateError(code: .network, message: "The request to \(operation) failed.", underlying: error)
    }
}
