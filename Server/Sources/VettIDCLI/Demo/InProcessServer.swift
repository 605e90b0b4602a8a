import Foundation
import Logging
import VettIDServer

/// The backend running inside this process on a free loopback port, with its data in a temporary directory.
struct InProcessServer {
    let baseURL: URL
    let directory: URL
    let components: ServerComponents
    private let runtime: ServerRuntime
    private let task: Task<Void, any Error>

    /// Starts the server and waits until it listens.
    static func start(logger: Logger) async throws -> InProcessServer {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "vettid-demo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let configuration = ServerConfiguration(
            host: "127.0.0.1", port: 0, dataDirectory: directory.appendingPathComponent("data").path)
        let components = try await ServerComponents.make(configuration: configuration, logger: logger)
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let runtime = try ServerRuntime(components: components, handlingSignals: false) { port in
            continuation.yield(port)
        }
        let task = Task {
            defer { continuation.finish() }
            try await runtime.run()
        }
        guard let port = await ports.first(where: { _ in true }) else {
            _ = try await task.value
            throw CLIFailure(code: "server_not_started", message: "the in-process server stopped before listening")
        }
        return InProcessServer(
            baseURL: URL(string: "http://127.0.0.1:\(port)")!, directory: directory, components: components,
            runtime: runtime, task: task
        )
    }

    /// Shuts the server down gracefully and removes its data.
    func stop() async {
        await runtime.shutdown()
        _ = try? await task.value
        try? FileManager.default.removeItem(at: directory)
    }
}
