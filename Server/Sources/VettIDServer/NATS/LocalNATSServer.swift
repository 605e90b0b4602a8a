// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
public import Logging
import NIOCore
import NIOPosix

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A nats-server process in operator mode with this server's trust, on a loopback port: what `vettid demo`,
/// the end-to-end tests and the benchmarks run. Production runs nats-server from the configuration
/// `vettid-server nats-config` writes.
public final class LocalNATSServer: Sendable {
    /// Why nats-server could not be started.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// `nats://127.0.0.1:<port>` or `tls://127.0.0.1:<port>`.
    public let url: String
    public let port: Int
    /// The CA clients trust when TLS is on.
    public let caFile: String?
    /// The directory holding the configuration, the resolver directory and the log.
    public let directory: String
    private let process: Process
    private let exit: ProcessExitWatcher
    private let configurationFile: String

    /// Where nats-server is installed, if it is.
    public static let executable: String? = [
        "/usr/sbin/nats-server", "/usr/bin/nats-server", "/usr/local/bin/nats-server",
    ]
    .first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Starts nats-server for the server whose data lives in `dataDirectory`: loads (or creates) its NATS trust
    /// there and preloads an application account without revocations. A server started afterwards with
    /// `nats_url` = ``url`` pushes the store's real account JWT as soon as it connects.
    public static func start(
        forDataDirectory dataDirectory: String, directory: String, port: Int? = nil, tls: Bool = false,
        logger: Logger
    ) async throws -> LocalNATSServer {
        let trust = try NATSTrust.loadOrCreate(dataDirectory: dataDirectory, logger: logger)
        return try await start(
            trust: trust,
            applicationAccountJWT: try trust.applicationAccountJWT(
                revocations: [:], issuedAt: Int64(Date().timeIntervalSince1970)),
            directory: directory, port: port, tls: tls)
    }

    /// Writes the configuration into `directory` and starts nats-server on `port` (a free one if `nil`).
    ///
    /// - Parameters:
    ///   - trust: The operator and accounts.
    ///   - applicationAccountJWT: The account JWT to preload.
    ///   - directory: Where the configuration, the resolver directory (`jwt/`), the TLS material and the log go.
    ///   - port: The client port; a free one if `nil`.
    ///   - tls: Generate a CA and a certificate for 127.0.0.1 and require TLS.
    ///   - serverName: The node's name (required in a cluster).
    ///   - cluster: Routes to the other nodes of a cluster.
    public static func start(
        trust: NATSTrust, applicationAccountJWT: String, directory: String, port: Int? = nil, tls: Bool = false,
        serverName: String? = nil, cluster: NATSServerConfigRenderer.Cluster? = nil
    ) async throws -> LocalNATSServer {
        guard let executable else {
            throw Failure(description: "nats-server is not installed (scripts/setup-system installs it)")
        }
        try FileManager.default.createDirectory(atPath: directory + "/jwt", withIntermediateDirectories: true)
        var caFile: String?
        var certificate: String?
        var key: String?
        if tls {
            let tlsDirectory = directory + "/tls"
            if FileManager.default.fileExists(atPath: tlsDirectory + "/ca.pem") {
                (caFile, certificate, key) = (
                    tlsDirectory + "/ca.pem", tlsDirectory + "/server-cert.pem", tlsDirectory + "/server-key.pem"
                )
            } else {
                let paths = try NATSTLSMaterial.generate().write(to: tlsDirectory)
                (caFile, certificate, key) = (paths.ca, paths.certificate, paths.key)
            }
        }
        var lastLog = ""
        for _ in 0..<(port == nil ? 3 : 1) {
            let chosen = try port ?? freePort()
            let configurationFile = directory + "/nats-server.conf"
            let text = try NATSServerConfigRenderer(trust: trust).render(
                {
                    var options = NATSServerConfigRenderer.Options(
                        port: chosen, resolverDirectory: directory + "/jwt", tlsCertificateFile: certificate,
                        tlsKeyFile: key)
                    options.serverName = serverName
                    options.cluster = cluster
                    options.jetStreamDirectory = directory + "/jetstream"
                    return options
                }(),
                applicationAccountJWT: applicationAccountJWT)
            try NATSServerConfigRenderer.write(text, to: configurationFile)
            let logFile = directory + "/nats-server.log"
            _ = FileManager.default.createFile(atPath: logFile, contents: nil)
            let (process, exit) = try launch(executable, configurationFile: configurationFile, logFile: logFile)
            if try await waitUntilAccepting(process, port: chosen, logFile: logFile, logOffset: 0) {
                return LocalNATSServer(
                    url: "\(tls ? "tls" : "nats")://127.0.0.1:\(chosen)", port: chosen, caFile: caFile,
                    directory: directory, process: process, exit: exit, configurationFile: configurationFile)
            }
            exit.terminate(process)
            lastLog = (try? String(contentsOfFile: logFile, encoding: .utf8)) ?? ""
        }
        throw Failure(description: "nats-server did not start: \(lastLog.suffix(2_000))")
    }

    private init(
        url: String, port: Int, caFile: String?, directory: String, process: Process, exit: ProcessExitWatcher,
        configurationFile: String
    ) {
        self.url = url
        self.port = port
        self.caFile = caFile
        self.directory = directory
        self.process = process
        self.exit = exit
        self.configurationFile = configurationFile
    }

    /// Whether the process is still running.
    public var isRunning: Bool { process.isRunning }

    /// Stops nats-server (SIGTERM, SIGKILL after 10 s) and waits for it to exit.
    public func stop() {
        exit.terminate(process)
    }

    /// A new nats-server on the same port with the same configuration and resolver directory (a restart).
    public func restarted() async throws -> LocalNATSServer {
        await exit.terminated(process)
        let logFile = directory + "/nats-server.log"
        let logOffset = (try? FileManager.default.attributesOfItem(atPath: logFile)[.size] as? Int) ?? 0
        let (process, exit) = try Self.launch(
            Self.executable ?? "/usr/sbin/nats-server", configurationFile: configurationFile, logFile: logFile)
        guard try await Self.waitUntilAccepting(process, port: port, logFile: logFile, logOffset: logOffset) else {
            throw Failure(description: "nats-server did not restart on port \(port)")
        }
        return LocalNATSServer(
            url: url, port: port, caFile: caFile, directory: directory, process: process, exit: exit,
            configurationFile: configurationFile)
    }

    /// The server's log so far.
    public var log: String { (try? String(contentsOfFile: directory + "/nats-server.log", encoding: .utf8)) ?? "" }

    /// Runs `nats-server -c configurationFile`, appending its output to `logFile`.
    private static func launch(_ executable: String, configurationFile: String, logFile: String) throws -> (
        Process, ProcessExitWatcher
    ) {
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logFile))
        log.seekToEndOfFile()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["-c", configurationFile]
        process.standardOutput = log
        process.standardError = log
        let exit = ProcessExitWatcher(process)
        try process.run()
        return (process, exit)
    }

    /// Ready when *this* process logged that it listens on `port` (in the log after `logOffset`) and the port
    /// accepts a connection: another nats-server can take a port between `freePort()` and this one's bind, and a
    /// bare connect would then reach that server.
    private static func waitUntilAccepting(_ process: Process, port: Int, logFile: String, logOffset: Int) async throws
        -> Bool
    {
        let deadline = ContinuousClock.now + .seconds(10)
        let listening = "Listening for client connections on 127.0.0.1:\(port)"
        while ContinuousClock.now < deadline {
            guard process.isRunning else { return false }
            let logged = FileManager.default.contents(atPath: logFile).map {
                String(decoding: $0.dropFirst(logOffset), as: UTF8.self)
            }
            if logged?.contains(listening) == true,
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

    /// A port nothing listens on now.
    public static func freePort() throws -> Int {
        let channel = try ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: "127.0.0.1", port: 0).wait()
        defer { try? channel.close().wait() }
        guard let port = channel.localAddress?.port else { throw Failure(description: "no free port") }
        return port
    }

    deinit {
        if process.isRunning { process.terminate() }
    }
}
