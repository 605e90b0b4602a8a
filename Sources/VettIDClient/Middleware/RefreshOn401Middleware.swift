// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation
public import HTTPTypes
public import OpenAPIRuntime
import VettIDCore

/// Refreshes the session once and replays the request when the server answers 401 `invalid_token`.
///
/// Place it outside ``AuthHeaderMiddleware`` and ``ErrorMappingMiddleware``. The refresh goes through
/// ``TokenSession/refresh(rejectedAccessToken:)``, so N concurrent 401s cause exactly one `POST /auth/refresh`.
/// A request whose body can be read only once is not replayed; neither are the auth operations themselves.
public struct RefreshOn401Middleware: ClientMiddleware {
    /// Operations never refreshed and replayed.
    public static let excludedOperations: Set<String> = [
        "getHealth", "register", "login", "refresh", "startPasskeySignIn", "signInWithPasskey",
    ]

    let session: TokenSession

    /// Creates the middleware.
    /// - Parameter session: The session to refresh.
    public init(session: TokenSession) {
        self.session = session
    }

    /// Sends the request; on 401 `invalid_token`, refreshes once and sends it again.
    public func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard !Self.excludedOperations.contains(operationID) else {
            return try await next(request, body, baseURL)
        }
        let sentTokens = await session.current
        do {
            return try await next(request, body, baseURL)
        } catch {
            guard let sentTokens, sentTokens.refreshToken != nil,
                let apiError = APIError.unwrap(error), apiError.status == 401,
                apiError.code == .invalidToken || apiError.code == .httpError,
                body == nil || body?.iterationBehavior == .multiple
            else { throw error }
            _ = try await session.refresh(rejectedAccessToken: sentTokens.accessToken)
            return try await next(request, body, baseURL)
        }
    }
}
