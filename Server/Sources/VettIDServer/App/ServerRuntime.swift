// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Logging
import ServiceLifecycle
import UnixSignals
import VettIDCore

/// Runs a server until asked to stop, then shuts down gracefully: stops accepting, lets in-flight requests
/// finish, and closes the store.
///
/// A process runs it until SIGTERM or SIGINT; an embedding program (`vettid demo`, tests) calls
/// ``shutdown()``.
public final class ServerRuntime: Sendable {
    private let group: ServiceGroup
    private let components: ServerComponents

    /// Prepares the server. `onRunning` receives the bound port once it listens.
    public init(
        components: ServerComponents,
        handlingSignals: Bool = true,
        onRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) throws {
        let application = try buildApplication(components: components, onRunning: onRunning)
        self.components = components
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = [.init(service: application)]
        if let publisher = components.natsPublisher { services.append(.init(service: publisher)) }
        if let mailbox = components.mailbox { services.append(.init(service: mailbox)) }
        if let provider = components.apnsProvider { services.append(.init(service: provider)) }
        if let reloader = components.keyRingReloader { services.append(.init(service: reloader)) }
        // Before the workers: the group stops services in reverse order, so the log writes the workers' last calls.
        services.append(.init(service: components.vaultAccessLog))
        services += components.vaultWorkers.map { .init(service: $0) }
        self.group = ServiceGroup(
            configuration: .init(
                services: services,
                gracefulShutdownSignals: handlingSignals ? [.sigterm, .sigint] : [],
                logger: components.logger
            )
        )
    }

    /// Serves until shut down, then closes the store (also when serving failed).
    public func run() async throws {
        let result: Result<Void, any Error>
        do {
            try await group.run()
            result = .success(())
        } catch {
            result = .failure(error)
        }
        try await components.shutdownStores()
        try result.get()
    }

    /// Starts a graceful shutdown; ``run()`` returns once it completes.
    public func shutdown() async {
        await group.triggerGracefulShutdown()
    }
}
