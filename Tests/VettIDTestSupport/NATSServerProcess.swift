// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// A real nats-server for tests: its own directory, a generated configuration, a free loopback port.

public import Foundation
import NIOCore
import NIOPosix

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A real nats-server started for one test: its own temporary directory, a generated configuration and a
/// free loopback port. `stop()` kills it; tests call it in `defer`.
public final class NATSServerProcess: Sendable {
    public static let executable: String? = {
        for path in ["/usr/sbin/nats-server", "/usr/bin/nats-server", "/usr/local/bin/nats-server"]
        where FileManager.default.isExecutableFile(atPath: path) {
            return path
        }
        return nil
    }()

    public static var isAvailable: Bool { executable != nil }

    public let port: Int
    public let directory: URL
    private let process: Process
    private let exit: ProcessExitWatcher
    private let extraConfiguration: String

    public var url: String { "nats://127.0.0.1:\(port)" }
    /// The same server as a `tls://` URL (for a server configured with TLS).
    public var tlsURL: String { "tls://127.0.0.1:\(port)" }

    /// Starts nats-server with `configuration` (without `port`/`listen`, which are added) and waits until
    /// it accepts connections. With no fixed port, a port another process grabbed in the meantime is
    /// retried with a fresh one. With `jetStream`, the server runs JetStream with its store in `jetstream/` of the
    /// server's directory (kept by ``restarted()``, removed by ``cleanUp()``).
    public init(
        configuration: String = "",
        port fixedPort: Int? = nil,
        directory: URL? = nil,
        jetStream: Bool = false
    ) async throws {
        guard let executable = Self.executable else { throw SkipError("nats-server is not installed") }
        let directory =
            directory
            ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("nats-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var configuration = configuration
        if jetStream {
            let store = directory.appendingPathComponent("jetstream").path
            configuration += "\njetstream {\n  store_dir: \"\(store)\"\n}\n"
        }
        let configFile = directory.appendingPathComponent("server.conf")
        let log = directory.appendingPathComponent("server.log")
        var started: (Process, ProcessExitWatcher, Int)?
        for _ in 0..<(fixedPort == nil ? 3 : 1) {
            let port = try fixedPort ?? LoopbackPort.reserve()
            try "listen: 127.0.0.1:\(port)\n\(configuration)\n".write(to: configFile, atomically: true, encoding: .utf8)
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            let handle = try FileHandle(forWritingTo: log)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = ["-c", configFile.path]
            process.standardOutput = handle
            process.standardError = handle
            let exit = ProcessExitWatcher(process)
            try process.run()
            if try await Self.waitUntilReady(process, port: port, log: log) {
                started = (process, exit, port)
                break
            }
            exit.terminate(process)
        }
        guard let (process, exit, port) = started else {
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            throw SkipError("nats-server did not start: \(text)")
        }
        self.process = process
        self.exit = exit
        self.port = port
        self.directory = directory
        self.extraConfiguration = configuration
    }

    /// Starts a new server process with the same configuration and port (a restart).
    public func restarted() async throws -> NATSServerProcess {
        try await NATSServerProcess(configuration: extraConfiguration, port: port, directory: directory)
    }

    public var log: String {
        (try? String(contentsOf: directory.appendingPathComponent("server.log"), encoding: .utf8)) ?? ""
    }

    /// Ready when *this* process says it listens on `port` and the port accepts a connection. The log line matters:
    /// with tests starting servers in parallel, another test's nats-server can take the port between
    /// `LoopbackPort.reserve()` and this one's bind, and a bare connect would then reach that server (whose operator
    /// refuses our users).
    private static func waitUntilReady(_ process: Process, port: Int, log: URL) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(10)
        let listening = "Listening for client connections on 127.0.0.1:\(port)"
        while ContinuousClock.now < deadline {
            if !process.isRunning { return false }
            let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            if text.contains(listening),
                let channel = try? await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                    .connect(host: "127.0.0.1", port: port).get()
            {
                try? await channel.close()
                return true
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        return false
    }

    /// Puts the server into lame duck mode (SIGUSR2, what `nats-server --signal ldm` sends).
    public func enterLameDuckMode() {
        kill(process.processIdentifier, SIGUSR2)
    }

    /// Stops the server (SIGTERM, SIGKILL after 10 s) and waits until it has exited.
    public func stop() {
        exit.terminate(process)
    }

    public func cleanUp() {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    /// The server (or a tool the test needs) is not usable on this machine.
    public struct SkipError: Error, CustomStringConvertible {
        public let description: String
        public init(_ description: String) { self.description = description }
    }
}
