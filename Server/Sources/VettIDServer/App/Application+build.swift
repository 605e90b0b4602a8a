// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Hummingbird
import Logging
import NIOCore
import VettIDCore
import VettIDCrypto

/// Builds the router: middlewares outermost first, then the route collections of the feature controllers.
///
/// Order: ``RequestInfoMiddleware`` (request id, access log, error rendering — it sees every outcome) →
/// ``RequestBodyMiddleware`` (size and content type; proxied routes exempt) → the OpenAPI operations
/// (`APIOperations`, which forwards each to its controller), the Gate proxy's raw streaming routes, the portal and
/// `/metrics`; last ``MethodNotAllowedMiddleware``, which only sees requests no route matched.
///
/// This is the one place that reads ``ServerComponents``: each controller gets exactly the services it uses.
public func buildRouter(components: ServerComponents) throws -> Router<AppRequestContext> {
    let router = Router(context: AppRequestContext.self)
    router.add(
        middleware: RequestInfoMiddleware(
            trustForwardedFor: components.configuration.trustForwardedFor, metrics: components.metrics))
    router.add(middleware: RequestBodyMiddleware(maxBytes: components.configuration.maxBodyBytes))
    let controllers = Controllers(components)
    let routes = RouteRecorder(router: router)
    routes.addRoutes(try controllers.api.routes())
    routes.addRoutes(controllers.api.gate.routes())
    routes.addRoutes(controllers.api.passkeys.routes())
    routes.addRoutes(controllers.portal.routes())
    routes.addRoutes(controllers.api.operations.routes())
    // Last: it wraps only the not-found responder (405 with Allow for a known path).
    router.add(middleware: MethodNotAllowedMiddleware(routes: routes.table))
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

/// The feature controllers, each built from the services it needs and nothing else.
private struct Controllers {
    let api: APIOperations
    let portal: PortalController

    init(_ components: ServerComponents) {
        let dpop = components.dpop
        let members = MemberAuthenticator(auth: components.auth, dpop: dpop)
        let devices = DeviceTokenAuthenticator(tokens: components.vaultTokens, dpop: dpop, clock: components.clock)
        let callers = VaultCallerAuthenticator(devices: devices, members: members)
        let sessionKeys = VaultSessionKeySetSource(signingKeys: components.signingKeys, clock: components.clock)
        let invitations = InvitationService(repository: components.invitations, clock: components.clock)
        let authController = AuthController(auth: components.auth, members: members, dpop: dpop)
        api = APIOperations(
            operations: OperationsController(
                store: components.store, natsPublisher: components.natsPublisher,
                metrics: components.configuration.metricsToken.map {
                    MetricsEndpoint(metrics: components.metrics, token: $0)
                }),
            auth: authController,
            invitations: InvitationController(
                invitations: invitations, members: members, origin: components.origin, clock: components.clock),
            enrollment: VaultEnrollmentController(
                enrollment: components.enrollment, devices: devices, dpop: dpop, sessionKeys: sessionKeys),
            vaultAuth: VaultAuthController(
                vaultAuth: components.vaultAuth, devices: devices, dpop: dpop,
                configuration: components.configuration.vault),
            vaultLifecycle: VaultLifecycleController(
                lifecycle: components.vaultLifecycle, callers: callers, members: members, sessionKeys: sessionKeys),
            nats: NATSCredentialsController(
                nats: components.nats, applicationAccountKey: components.natsTrust.applicationAccount.publicKey,
                callers: callers),
            push: PushController(push: components.push, devices: devices, lifecycle: components.vaultLifecycle),
            passkeys: PasskeyController(passkeys: components.passkeys, members: members, auth: authController),
            gate: GateController(gate: components.gate, dpop: dpop, proxy: components.gateProxy))
        portal = PortalController(
            auth: components.auth, passkeys: components.passkeys, lifecycle: components.vaultLifecycle,
            nats: components.nats,
            invitations: invitations, securityEvents: SecurityEventRepository(store: components.store),
            accessLog: VaultAccessLogRepository(store: components.store),
            keys: components.keys, origin: components.origin,
            passwordPolicy: components.configuration.passwordPolicy, clock: components.clock)
    }
}
