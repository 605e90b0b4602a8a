// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import ArgumentParser
import Foundation
import Logging
import VettIDClient
import VettIDCore
import VettIDServer

/// `vettid demo`: runs the whole system on embedded defaults and walks every flow, one line per step.
public struct DemoCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract:
            "Start the backend in-process (SQLite in a temporary folder, a free loopback port) and walk every flow."
    )

    @Option(help: "Output format: human or json.")
    var output: OutputFormat = .human

    @Flag(help: "Show the server's own log lines (info level) on standard error.")
    var verbose = false

    @Flag(
        help:
            "Leave a backend running with the member portal (and nats-server) until interrupted, instead of walking the flows; prints the portal's URL and a member's sign-in."
    )
    var serve = false

    @Option(help: "With --serve: the loopback port to listen on (default: a free one).")
    var port: Int = 0

    public init() {}

    public func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be 0 to 65535") }
        guard serve || port == 0 else { throw ValidationError("--port goes with --serve") }
    }

    @MainActor
    public func run() async throws {
        let reporter = DemoReporter(format: output)
        let started = ContinuousClock.now
        var serverLogger = Logger(label: "vettid-server") { StreamLogHandler.standardError(label: $0) }
        serverLogger.logLevel = verbose ? .info : .error
        if serve {
            try await DemoServe(port: port, output: output, logger: serverLogger).run()
            return
        }

        reporter.section("backend")
        let backend = try await DemoBackend.start(reporter: reporter, logger: serverLogger)
        var failure: (any Error)?
        do {
            // The sections, in order, on the one backend.
            try await MemberAuthDemo(reporter: reporter).run(on: backend)
            try await MemberAuthDemo(reporter: reporter).runPasskeys(on: backend)
            try await GateDemo(reporter: reporter).run(on: backend)
            let device = try await VaultDemo(reporter: reporter).run(on: backend)
            try await MessagingDemo(reporter: reporter, logger: serverLogger).run(on: backend, device: device)
        } catch {
            failure = error
        }
        reporter.section("shutdown")
        try? await reporter.step("stop backend") {
            await backend.stop()
            return ((), "graceful shutdown, temporary data removed")
        }
        reporter.finish(total: ContinuousClock.now - started)
        if failure != nil || reporter.failures > 0 { throw ExitCode(1) }
    }
}
