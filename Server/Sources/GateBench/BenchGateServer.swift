import Foundation
import Logging
import VettIDAttestation
import VettIDServer

/// The VettID server, in process on loopback, with SQLite in a temporary directory and a Gate that proxies
/// `/proxy/bench/**` to the upstream and accepts one development token (as `vettid demo` configures it).
struct BenchGateServer {
    /// `http://127.0.0.1:<port>`.
    let baseURL: String
    private let directory: URL
    private let runtime: ServerRuntime
    private let task: Task<Void, any Error>

    /// The app id the Gate is configured with; the client's team and bundle id.
    static let teamID = "VETTIDBNCH"
    static let bundleID = "dev.vettid.bench"

    static func start(upstreamBaseURL: String, developmentToken: String) async throws -> BenchGateServer {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vettid-gatebench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        var gate = GateConfiguration(
            appID: "\(teamID).\(bundleID)",
            allowedEnvironments: [.development],
            developmentTokens: [developmentToken],
            upstreams: ["bench": GateUpstream(baseURL: upstreamBaseURL + "/api")]
        )
        gate.tokenLifetime = .seconds(3600)
        var configuration = ServerConfiguration(
            host: "127.0.0.1", port: 0, dataDirectory: directory.appendingPathComponent("data").path, logLevel: .error)
        configuration.gate = gate
        // Only the auth routes are rate limited; raised anyway so no limit can shape a run.
        configuration.limits.perIP = .init(capacity: 1_000_000, window: .seconds(60))
        var logger = Logger(label: "gatebench-server")
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
        return BenchGateServer(baseURL: "http://127.0.0.1:\(port)", directory: directory, runtime: runtime, task: task)
    }

    func stop() async {
        await runtime.shutdown()
        _ = try? await task.value
        try? FileManager.default.removeItem(at: directory)
    }
}
