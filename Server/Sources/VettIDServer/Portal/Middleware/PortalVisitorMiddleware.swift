// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Hummingbird

/// Sends a signed-in member who opens a page meant for visitors (`GET` of registration or sign-in) to the
/// dashboard. A `POST` is left to the page.
struct PortalVisitorMiddleware: RouterMiddleware {
    typealias Context = PortalRequestContext

    let responder: PortalResponder

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        if context.visit.member != nil, request.method != .post { return responder.redirect("/portal", context.visit) }
        return try await next(request, context)
    }
}
