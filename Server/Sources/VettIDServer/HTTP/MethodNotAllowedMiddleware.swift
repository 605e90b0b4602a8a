// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import HTTPTypes
public import Hummingbird
import VettIDCore

/// Turns the router's 404 for a path that exists under other methods into 405 `method_not_allowed` with an
/// `Allow` header listing them.
///
/// Added to the router after every route, so it wraps only the router's not-found responder: routes never
/// pass through it, and a handler's own 404 (an unknown resource) is left alone.
public struct MethodNotAllowedMiddleware: RouterMiddleware {
    public typealias Context = AppRequestContext
    let routes: RouteTable

    public init(routes: RouteTable) { self.routes = routes }

    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            let allowed = routes.allowedMethods(for: request.uri.path)
            guard !allowed.isEmpty else { throw error }
            throw APIFailure(
                .methodNotAllowed, .methodNotAllowed, "\(request.method.rawValue) is not served here",
                headers: [.allow: allowed.map(\.rawValue).joined(separator: ", ")])
        }
    }
}
