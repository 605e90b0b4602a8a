// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Hummingbird

/// A request context of the portal's routes: the visit (who is signed in, the form, the cookies the answer sets)
/// travels in it from the portal's middlewares to the page.
protocol PortalContext: RequestContext {
    /// The visit, as the portal's middlewares have found it so far.
    var visit: PortalVisit { get set }
}

/// The context of every route under `/portal`: the application's context plus the visit.
///
/// ``PortalSessionMiddleware`` fills in who is signed in; ``PortalCSRFMiddleware`` adds a `POST`'s form.
struct PortalRequestContext: ChildRequestContext, PortalContext {
    var coreContext: CoreRequestContextStorage
    var visit: PortalVisit

    init(context: AppRequestContext) throws {
        coreContext = context.coreContext
        let info = try RequestInfo.required
        visit = PortalVisit(info: info, query: PortalVisit.query(info.head.path), member: nil, anonymousCSRF: "")
    }
}

/// The context of the pages only a signed-in member sees: the member, typed.
///
/// Made from a ``PortalRequestContext`` after ``PortalSessionMiddleware``; when nobody is signed in it cannot be
/// made, and the request is redirected to the sign-in page (``PortalRedirect``).
struct MemberPortalContext: ChildRequestContext, PortalContext {
    var coreContext: CoreRequestContextStorage
    var visit: PortalVisit
    /// The signed-in member and their session.
    let member: AuthService.Authenticated

    init(context: PortalRequestContext) throws {
        guard let member = context.visit.member else { throw PortalRedirect(to: "/portal/sign-in") }
        coreContext = context.coreContext
        visit = context.visit
        self.member = member
    }
}

/// Ends a portal request with `303 See Other` to a portal path (never one taken from the request), carrying the
/// visit's cookies; ``PortalSessionMiddleware`` answers it.
struct PortalRedirect: Error, Sendable {
    let path: String

    init(to path: String) { self.path = path }
}
