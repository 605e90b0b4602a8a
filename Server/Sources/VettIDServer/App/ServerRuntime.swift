import Logging
import ServiceLifecycle
import UnixSignals

/// Runs a server until asked to stop, then shuts down gracefully: stops accepting, lets in-flight requests
/// finish, and releases the store.
public enum ServerRuntime {
    /// Runs `components` until SIGTERM or SIGINT (or cancellation). `onRunning` receives the bound port.
    public static func run(
        components: ServerComponents,
        onRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) async throws {
        let application = try buildApplication(components: components, onRunning: onRunning)
        let group = ServiceGroup(
            configuration: .init(
                services: [.init(service: application)],
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: components.logger
            )
        )
        do {
            try await group.run()
        } catch {
            try? await components.store.shutdown()
            throw error
        }
        try await components.store.shutdown()
    }
}
