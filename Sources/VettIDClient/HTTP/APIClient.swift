// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
public import HTTPTypes
public import OpenAPIRuntime
public import VettIDAPI
import VettIDCore

/// The SDK's HTTP client: the generated `Client` behind the middleware chain, and the member's token session.
///
/// Chain for ``client`` (outermost first): ``RefreshOn401Middleware``, ``RetryMiddleware``,
/// ``AuthHeaderMiddleware``, ``ErrorMappingMiddleware``, ``LoggingMiddleware``. So every attempt is logged
/// with redacted credentials, every non-2xx becomes an ``APIError``, 502/503/504 and network failures of
/// idempotent requests are retried, and a 401 `invalid_token` refreshes the session once (single flight) and
/// replays the request. The refresh itself goes through a client without the auth and refresh middlewares.
public final class APIClient: Sendable {
    /// The configuration.
    public let configuration: APIClientConfiguration
    /// The member's tokens.
    public let session: TokenSession
    /// The generated client behind the full middleware chain.
    public let client: Client
    /// The generated client without member tokens and refresh (retry, token-endpoint proofs, error mapping, logging).
    let unauthenticatedClient: Client
    /// The chain behind ``client``, outermost first.
    let middlewares: [any ClientMiddleware]

    /// Creates a client.
    /// - Parameters:
    ///   - configuration: Server URL, transport, logger, retries and DPoP seam.
    ///   - session: The token session (restore it before use to pick up stored tokens).
    public init(configuration: APIClientConfiguration, session: TokenSession) {
        self.configuration = configuration
        self.session = session
        let middlewares: [any ClientMiddleware] = [
            RefreshOn401Middleware(session: session),
            RetryMiddleware(policy: configuration.retryPolicy),
            AuthHeaderMiddleware(session: session, proofProvider: configuration.proofProvider),
            ErrorMappingMiddleware(),
            LoggingMiddleware(logger: configuration.logger),
        ]
        self.middlewares = middlewares
        self.client = Client(
            serverURL: configuration.baseURL, transport: configuration.transport, middlewares: middlewares)
        self.unauthenticatedClient = Self.makeUnauthenticatedClient(configuration: configuration)
    }

    static func makeUnauthenticatedClient(configuration: APIClientConfiguration) -> Client {
        Client(
            serverURL: configuration.baseURL,
            transport: configuration.transport,
            middlewares: [
                RetryMiddleware(policy: configuration.retryPolicy),
                AuthHeaderMiddleware(session: nil, proofProvider: configuration.proofProvider),
                ErrorMappingMiddleware(),
                LoggingMiddleware(logger: configuration.logger),
            ]
        )
    }

    /// Makes the refresher for a ``TokenSession``: `POST /auth/refresh` on a chain without auth and refresh
    /// middlewares (so a refresh never recurses).
    public static func makeRefresher(configuration: APIClientConfiguration) -> TokenSession.Refresher {
        let client = makeUnauthenticatedClient(configuration: configuration)
        return { refreshToken in
            let output = try await client.refresh(body: .json(.init(refreshToken: refreshToken)))
            guard case .ok(let ok) = output, case .json(let body) = ok.body else {
                throw APIError(code: .invalidResponse, description: "Unexpected answer to refresh.")
            }
            return try SessionTokens(tokenResponse: body, setCookie: ok.headers.setCookie)
        }
    }

    /// Runs a call on the full chain and converts any failure into an ``APIError``.
    public func perform<Result: Sendable>(_ call: @Sendable (Client) async throws -> Result) async throws(APIError)
        -> Result
    {
        do {
            return try await call(client)
        } catch {
            throw APIError.from(error)
        }
    }

    /// Sends a request that is not an operation of `openapi.yaml` (an app's own backend route on the same server)
    /// through the same chain as ``client``: the member's token and proof, retries of idempotent requests, one
    /// refresh and replay on 401, error mapping, redacted logging.
    /// - Parameters:
    ///   - request: Method, path (relative to the base URL, with any query) and header fields.
    ///   - body: The body, if any (sent again on a replay only if it can be iterated more than once).
    /// - Returns: The 2xx answer; anything else throws.
    /// - Throws: ``APIError`` (the server's code, or `http_error` with the status when the body has none).
    public func send(_ request: HTTPRequest, body: HTTPBody? = nil) async throws(APIError) -> (HTTPResponse, HTTPBody?)
    {
        let transport = configuration.transport
        let baseURL = configuration.baseURL
        let operationID = "appRequest"
        var next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?) = {
            try await transport.send($0, body: $1, baseURL: $2, operationID: operationID)
        }
        for middleware in middlewares.reversed() {
            let inner = next
            next = { try await middleware.intercept($0, body: $1, baseURL: $2, operationID: operationID, next: inner) }
        }
        do {
            return try await next(request, body, baseURL)
        } catch {
            throw APIError.from(error)
        }
    }

    /// Runs a call on the unauthenticated chain and converts any failure into an ``APIError``.
    func performUnauthenticated<Result: Sendable>(_ call: @Sendable (Client) async throws -> Result)
        async throws(APIError) -> Result
    {
        do {
            return try await call(unauthenticatedClient)
        } catch {
            throw APIError.from(error)
        }
    }
}
