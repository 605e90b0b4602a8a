// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Puts `Authorization: DPoP <token>` on every request of one vault call (enrollment token or action token).
///
/// It runs outside ``DPoPProofMiddleware``, which then adds `ath` for the token.
struct VaultAuthorizationMiddleware: ClientMiddleware {
    let token: String

    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        request.headerFields[.authorization] = "DPoP \(token)"
        return try await next(request, body, baseURL)
    }
}
