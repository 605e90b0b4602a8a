// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import HTTPTypes
import Hummingbird

/// Adds routes to the router and records each (method, path) in a ``RouteTable``, in the order they are added, for
/// ``MethodNotAllowedMiddleware``. Used once, while the router is built, on one task.
final class RouteRecorder: RouterMethods {
    typealias Context = AppRequestContext

    private let router: Router<AppRequestContext>
    /// Everything recorded so far.
    private(set) var table = RouteTable()

    init(router: Router<AppRequestContext>) { self.router = router }

    @discardableResult func on<Responder: HTTPResponder>(
        _ path: RouterPath, method: HTTPRequest.Method, responder: Responder
    ) -> Self where Responder.Context == AppRequestContext {
        router.on(path, method: method, responder: responder)
        table.add(method, path.description)
        return self
    }

    @discardableResult func add(middleware: any MiddlewareProtocol<Request, Response, AppRequestContext>) -> Self {
        router.add(middleware: middleware)
        return self
    }
}
