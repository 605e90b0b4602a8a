// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation
public import Logging

/// The server running inside this process on a free loopback port, with its data in a fresh temporary directory
/// that ``stop()`` removes. What `vettid demo` and the benchmarks run; production uses `vettid server`.
public struct LoopbackServer: Sendable {
    /// The server did not get to listen.
    public struct NotStarted: Error, CustomStringConvertible {
        public var description: String { "the in-process server stopped before listening" }
    }

    /// `http://127.0.0.1:<port>`.
    public let baseURL: URL
    /// The temporary directory holding the data directory (`data/`) and anything a caller puts next to it.
    public let directory: URL
    /// The running server's parts.
    public let components: ServerComponents
    /// The nats-server started with it (operator mode, this server's trust), if one was asked for.
    public let nats: LocalNATSServer?
    private let runtime: ServerRuntime
    private let task: Task<Void, any Error>

    /// Starts a server on `127.0.0.1` and an ephemeral port and waits until it listens.
    /// - Parameters:
    ///   - label: The prefix of the temporary directory's name.
    ///   - logger: Where the server (and the nats-server process, if any) logs.
    ///   - nats: Also start a local nats-server (in `<directory>/nats`, TLS with a generated CA when `.tls`) and
    ///     connect the server to it; `nil` runs without NATS.
    ///   - configure: Changes to the default configuration (host, port and data directory are already set).
    nonisolated(nonsending) public static func start(
        label: String = "vettid-loopback", logger: Logger, nats: NATSMode? = nil,
        configure: (inout ServerConfiguration) -> Void = { _ in }
    ) async throws -> LoopbackServer {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        var configuration = ServerConfiguration(
            host: "127.0.0.1", port: 0, dataDirectory: directory.appendingPathComponent("data").path)
        var natsServer: LocalNATSServer?
        if let nats {
            let started = try await LocalNATSServer.start(
                forDataDirectory: configuration.dataDirectory, directory: directory.appendingPathComponent("nats").path,
                tls: nats == .tls, logger: logger)
            configuration.nats.url = started.url
            configuration.nats.caFile = started.caFile
            natsServer = started
        }
        configure(&configuration)
        let components: ServerComponents
        do {
            components = try await ServerComponents.make(configuration: configuration, logger: logger)
        } catch {
            natsServer?.stop()
            throw error
        }
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let runtime = try ServerRuntime(components: components, handlingSignals: false) { continuation.yield($0) }
        let task = Task {
            defer { continuation.finish() }
            try await runtime.run()
        }
        guard let port = await ports.first(where: { _ in true }), let baseURL = URL(string: "http://127.0.0.1:\(port)")
        else {
            natsServer?.stop()
            _ = try await task.value
            throw NotStarted()
        }
        return LoopbackServer(
            baseURL: baseURL, directory: directory, components: components, nats: natsServer, runtime: runtime,
            task: task)
    }

    /// Shuts the server down gracefully and removes its directory.
    public func stop() async {
        await runtime.shutdown()
        _ = try? await task.value
        nats?.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// How a loopback server's nats-server listens.
    public enum NATSMode: Sendable, Equatable {
        /// `nats://127.0.0.1:<port>`.
        case plain
        /// `tls://127.0.0.1:<port>` with a CA generated for the run.
        case tls
    }
}
