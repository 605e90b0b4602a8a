// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Hummingbird
import Logging
import NIOCore
import OpenAPIHummingbird

/// Builds the router: middlewares outermost first, then every generated operation.
///
/// Order: ``RequestInfoMiddleware`` (request id, access log, error rendering — it sees every outcome) →
/// ``RequestBodyMiddleware`` (size and content type; proxied routes exempt) → the generated OpenAPI routes and
/// the Gate proxy's raw streaming routes (``GateProxy``); last ``MethodNotAllowedMiddleware``, which only sees
/// requests no route matched.
public func buildRouter(components: ServerComponents) throws -> Router<AppRequestContext> {
    let router = Router(context: AppRequestContext.self)
    router.add(
        middleware: RequestInfoMiddleware(
            trustForwardedFor: components.configuration.trustForwardedFor, metrics: components.metrics))
    router.add(middleware: RequestBodyMiddleware(maxBytes: components.configuration.maxBodyBytes))
    let handler = APIHandler(components: components, cookies: AuthCookie())
    let transport = RouteRecordingTransport(router: router)
    try handler.registerHandlers(on: transport, middlewares: [EmptyBodyMiddleware()])
    components.gateProxy.register(on: router)
    for (method, path) in PortalRoutes(components: components).register(on: router) {
        transport.record(method, path)
    }
    for method in GateProxy.methods { transport.record(method, GateProxy.routePath) }
    if let token = components.configuration.metricsToken {
        MetricsEndpoint(metrics: components.metrics, token: token).register(on: router)
        transport.record(.get, MetricsEndpoint.path)
    }
    // Last: it wraps only the not-found responder (405 with Allow for a known path).
    router.add(middleware: MethodNotAllowedMiddleware(routes: transport.table))
    return router
}

/// Builds the Hummingbird application for `components`. `onRunning` receives the bound port once listening.
public func buildApplication(
    components: ServerComponents,
    onRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) throws -> some ApplicationProtocol {
    let configuration = components.configuration
    return Application(
        router: try buildRouter(components: components),
        configuration: .init(
            address: .hostname(configuration.host, port: configuration.port),
            serverName: VettIDServerInfo.name
        ),
        onServerRunning: { channel in
            let port = channel.localAddress?.port ?? configuration.port
            components.origin.bound(host: configuration.host, port: port)
            await onRunning(port)
        },
        logger: components.logger
    )
}
