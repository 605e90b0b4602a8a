import Foundation
import Logging
import VettIDServer

/// The VettID server in process on loopback: keys in a temporary directory, SQLite there too unless a PostgreSQL
/// URL is given, development-token attestation, the default Argon2id settings, and every rate limit that a
/// benchmark would hit raised out of the way.
struct BenchVaultServer {
    /// `http://127.0.0.1:<port>`.
    let baseURL: String
    /// What the server runs with (for the report).
    let configuration: ServerConfiguration
    private let directory: URL
    private let runtime: ServerRuntime
    private let task: Task<Void, any Error>

    static func start(databaseURL: String?, developmentToken: String) async throws -> BenchVaultServer {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vettid-vaultbench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        var configuration = ServerConfiguration(
            host: "127.0.0.1", port: 0, dataDirectory: directory.appendingPathComponent("data").path, databaseURL: databaseURL,
            logLevel: .error)
        configuration.gate = GateConfiguration(developmentTokens: [developmentToken])
        let unlimited = RateLimiter.Rule(capacity: 1_000_000, window: .seconds(60))
        configuration.limits.perIP = unlimited
        configuration.vault.enrollmentStartsPerIP = unlimited
        configuration.vault.actionsPerCredential = unlimited
        var logger = Logger(label: "vaultbench-server")
        logger.logLevel = .error
        let components = try await ServerComponents.make(configuration: configuration, logger: logger)
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let runtime = try ServerRuntime(components: components, handlingSignals: false) { port in continuation.yield(port) }
        let task = Task {
            defer { continuation.finish() }
            try await runtime.run()
        }
        guard let port = await ports.first(where: { _ in true }) else {
            _ = try await task.value
            throw BenchFailure("the VettID server stopped before listening")
        }
        return BenchVaultServer(
            baseURL: "http://127.0.0.1:\(port)", configuration: configuration, directory: directory, runtime: runtime, task: task)
    }

    func stop() async {
        await runtime.shutdown()
        _ = try? await task.value
        try? FileManager.default.removeItem(at: directory)
    }
}
