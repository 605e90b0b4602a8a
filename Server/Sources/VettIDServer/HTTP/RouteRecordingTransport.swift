// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import HTTPTypes
import Hummingbird
import OpenAPIHummingbird
import OpenAPIRuntime

/// Registers the generated operations on the router and records each (method, path) in a ``RouteTable``.
/// Used once, while the router is built, on one task.
final class RouteRecordingTransport: ServerTransport {
    private let router: Router<AppRequestContext>
    /// Everything recorded so far.
    private(set) var table = RouteTable()

    init(router: Router<AppRequestContext>) { self.router = router }

    func register(
        _ handler:
            @escaping @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (
                HTTPResponse, HTTPBody?
            ),
        method: HTTPRequest.Method,
        path: String
    ) throws {
        router.register(handler, method: method, path: path)
        table.add(method, path)
    }

    /// Records a route registered on the router directly.
    func record(_ method: HTTPRequest.Method, _ path: String) {
        table.add(method, path)
    }
}
