// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing
import VettIDClient
import VettIDTestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The built `vettid` binary serving (`vettid server`) on a fixed loopback port, over one data directory and
/// (optionally) one PostgreSQL database, so it can be killed hard (SIGKILL) and started again where it was.
///
/// Its output goes to `server.log` in the directory; a start that does not answer `/health` reports it.
actor ServerProcess {
    nonisolated let baseURL: URL
    nonisolated let directory: URL
    private let executable: URL
    private let port: Int
    private let databaseURL: String?
    private let dataDirectory: String
    private let environment: [String: String]
    private let health = DefaultTransport.make()
    private var process: Process?
    private var exit: ProcessExitWatcher?
    /// How many times the server was started.
    private(set) var starts = 0

    /// - Parameters:
    ///   - executable: The `vettid` binary.
    ///   - databaseURL: PostgreSQL to use instead of SQLite in the data directory.
    ///   - environment: `VETTID_*` configuration; every inherited `VETTID_*` variable is dropped.
    ///   - dataDirectory: A data directory shared with other instances; `nil`: one of its own.
    init(executable: URL, databaseURL: String?, environment: [String: String], dataDirectory: String? = nil) throws {
        self.executable = executable
        self.databaseURL = databaseURL
        self.directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "vettid-crash-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.dataDirectory = dataDirectory ?? directory.appendingPathComponent("data").path
        self.port = try LoopbackPort.reserve()
        self.baseURL = URL(string: "http://127.0.0.1:\(port)")!
        var inherited = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("VETTID_") }
        inherited.merge(environment) { _, new in new }
        self.environment = inherited
    }

    /// Starts the server and waits until `/health` answers 200.
    func start() async throws {
        guard process == nil else { throw E2EFailure("the server is already running") }
        let logURL = directory.appendingPathComponent("server.log")
        if !FileManager.default.fileExists(atPath: logURL.path) {
            _ = FileManager.default.createFile(atPath: logURL.path, contents: nil)
        }
        let log = try FileHandle(forWritingTo: logURL)
        try log.seekToEnd()
        let process = Process()
        process.executableURL = executable
        process.arguments =
            [
                "server", "--host", "127.0.0.1", "--port", "\(port)", "--data-dir", dataDirectory,
            ]
            + (databaseURL.map { ["--database-url", $0] } ?? [])
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = log
        process.standardError = log
        let exit = ProcessExitWatcher(process)
        try process.run()
        try? log.close()
        self.process = process
        self.exit = exit
        starts += 1
        let healthy = try await eventually(timeout: .seconds(30), poll: .milliseconds(25)) {
            guard process.isRunning else {
                self.process = nil
                throw E2EFailure("the server exited with status \(process.terminationStatus): \(Self.tail(logURL))")
            }
            return await isHealthy()
        }
        if !healthy { kill() }
        try #require(healthy, "the server did not answer /health within 30 s: \(Self.tail(logURL))")
    }

    /// Stops the server hard: SIGKILL, no shutdown, nothing flushed that was not committed.
    func kill() {
        guard let process else { return }
        #if canImport(Glibc)
            _ = Glibc.kill(process.processIdentifier, SIGKILL)
        #else
            _ = Darwin.kill(process.processIdentifier, SIGKILL)
        #endif
        exit?.wait(timeout: .seconds(30))
        self.process = nil
        self.exit = nil
    }

    /// ``kill()`` then ``start()`` on the same port, data directory and database.
    func restart() async throws {
        kill()
        try await start()
    }

    /// Stops the server (SIGTERM, then SIGKILL after 5 s) and removes the directory.
    func stop() async {
        if let process {
            process.terminate()
            // Not asserted: a server still running after 5 s is killed below.
            _ = await eventually(timeout: .seconds(5)) { !process.isRunning }
            kill()
        }
        try? FileManager.default.removeItem(at: directory)
    }

    private func isHealthy() async -> Bool {
        let request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/health")
        guard let (response, _) = try? await health.send(request, body: nil, baseURL: baseURL, operationID: "getHealth")
        else {
            return false
        }
        return response.status == .ok
    }

    private static func tail(_ url: URL) -> String {
        String(String(decoding: (try? Data(contentsOf: url)) ?? Data(), as: UTF8.self).suffix(2_000))
    }
}
