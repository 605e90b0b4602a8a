// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import ArgumentParser
import BenchSupport
import Foundation
import Logging
import VettIDServer
import VettIDTestSupport

/// `VaultMessagingBench`: app ↔ vault over NATS through the backend's vault worker, against a real nats-server in
/// operator mode (scripts/bench-messaging builds it in release and runs it).
///
/// 1. Round trip, one request at a time: p50/p99 through the worker, against a raw NATS request/reply echo on the
///    same nats-server (the peer: what the worker adds on top of NATS itself).
/// 2. Answered requests per second with several apps and 1, 2, 4… worker instances in the `vault-workers` queue
///    group.
@main
struct VaultMessagingBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "VaultMessagingBench",
        abstract: "App-to-vault round trips (p50/p99) and requests/s through the vault worker over a real nats-server."
    )

    @Option(help: "Sequential round trips measured (after a warm-up of 500).")
    var requests: Int = 5_000

    @Option(help: "Alternating rounds (raw, worker, raw, …) the round trips are split into.")
    var rounds: Int = 10

    @Option(parsing: .upToNextOption, help: "Worker instances of each throughput phase, one phase per value.")
    var workers: [Int] = [1, 2, 4]

    @Option(help: "Concurrent apps in the throughput phases.")
    var clients: Int = 8

    @Option(help: "Requests each app keeps in flight.")
    var window: Int = 16

    @Option(help: "Seconds each path of a throughput phase runs (in two alternating halves).")
    var seconds: Double = 10

    func validate() throws {
        guard requests > 0, rounds > 0, clients > 0, window > 0, seconds > 0,
            workers.allSatisfy({ (1...64).contains($0) })
        else {
            throw ValidationError(
                "--requests, --rounds, --clients, --window, --seconds must be positive; --workers 1...64")
        }
    }

    func run() async throws {
        var logger = Logger(label: "bench")
        logger.logLevel = .error
        print(
            "VaultMessagingBench: \(ProcessInfo.processInfo.activeProcessorCount) cores, release build: "
                + "\(Self.isReleaseBuild ? "yes" : "NO (debug: numbers are meaningless)"), nats-server \(Self.natsVersion())"
        )
        print("")

        let roundTrip = try await LoopbackServer.start(label: "vettid-bench-messaging", logger: logger, nats: .plain) {
            $0.nats.workerInstances = 1
        }
        let connections = BenchConnections(server: roundTrip)
        let sampled = try await RoundTripBenchmark.run(connections, requests: requests, warmup: 500, rounds: rounds)
        let (raw, shaped, worker) = (sampled.raw, sampled.shaped, sampled.worker)
        await roundTrip.stop()
        print(
            "round trip, 1 app, 1 request in flight, \(raw.count) requests per path in \(rounds) alternating rounds (µs):"
        )
        print("  path                         p50       p99")
        for (name, sample) in [
            ("raw NATS request/reply echo", raw), ("raw echo, shaped subjects", shaped),
            ("app → worker (execute echo)", worker),
        ] {
            print(
                "  " + name.padding(toLength: 27, withPad: " ", startingAt: 0)
                    + String(
                        format: "%9.0f %9.0f", sample.percentile(0.5).microseconds, sample.percentile(0.99).microseconds
                    ))
        }
        print(
            String(
                format: "  worker / raw: p50 %.2f×, p99 %.2f×",
                worker.percentile(0.5).microseconds / raw.percentile(0.5).microseconds,
                worker.percentile(0.99).microseconds / raw.percentile(0.99).microseconds))
        print(
            String(
                format: "  worker / shaped: p50 %.2f×, p99 %.2f×",
                worker.percentile(0.5).microseconds / shaped.percentile(0.5).microseconds,
                worker.percentile(0.99).microseconds / shaped.percentile(0.99).microseconds))
        print("")

        print(
            "throughput, \(clients) apps × \(window) requests in flight, \(seconds) s per path in two alternating halves "
                + "(peer: the same load against raw echo responders in a queue group on the same nats-server; "
                + "'shaped': on subjects of the app's lengths and a wildcard subscription, as the worker's path; "
                + "'on loop': the shaped responders on their connections' event loops, where the worker's lanes run):")
        print("  responders                 answered   requests/s   vs raw   vs shaped   vs on loop")
        for count in workers {
            let server = try await LoopbackServer.start(label: "vettid-bench-messaging", logger: logger, nats: .plain) {
                $0.nats.workerInstances = count
            }
            let connections = BenchConnections(server: server)
            // Two alternating halves each (raw, shaped, on loop, worker, twice), for the same reason as the
            // round trips.
            var raw = ThroughputBenchmark.Result(answered: 0, elapsed: .zero)
            var shaped = raw
            var onLoop = raw
            var worker = raw
            for _ in 0..<2 {
                raw.add(
                    try await ThroughputBenchmark.raw(
                        connections, clients: clients, window: window, seconds: seconds / 2, responders: count))
                shaped.add(
                    try await ThroughputBenchmark.raw(
                        connections, clients: clients, window: window, seconds: seconds / 2, responders: count,
                        vaultShaped: true))
                onLoop.add(
                    try await ThroughputBenchmark.raw(
                        connections, clients: clients, window: window, seconds: seconds / 2, responders: count,
                        vaultShaped: true, onEventLoop: true))
                worker.add(
                    try await ThroughputBenchmark.run(
                        connections, clients: clients, window: window, seconds: seconds / 2))
            }
            await server.stop()
            print(String(format: "  %2d raw echo             %10d %12.0f", count, raw.answered, raw.perSecond))
            print(
                String(
                    format: "  %2d raw echo, shaped     %10d %12.0f %8.2f×", count, shaped.answered, shaped.perSecond,
                    shaped.perSecond / raw.perSecond))
            print(
                String(
                    format: "  %2d raw echo, on loop    %10d %12.0f %8.2f× %8.2f×", count, onLoop.answered,
                    onLoop.perSecond, onLoop.perSecond / raw.perSecond, onLoop.perSecond / shaped.perSecond))
            print(
                String(
                    format: "  %2d vault worker         %10d %12.0f %8.2f× %8.2f× %10.2f×", count, worker.answered,
                    worker.perSecond, worker.perSecond / raw.perSecond, worker.perSecond / shaped.perSecond,
                    worker.perSecond / onLoop.perSecond))
        }
    }

    static var isReleaseBuild: Bool {
        #if DEBUG
            return false
        #else
            return true
        #endif
    }

    static func natsVersion() -> String {
        guard let executable = LocalNATSServer.executable else { return "missing" }
        let process = Process()
        let pipe = Pipe()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["--version"]
        process.standardOutput = pipe
        let exit = ProcessExitWatcher(process)
        guard (try? process.run()) != nil else { return "unknown" }
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        exit.wait(timeout: .seconds(10))
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
