// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import ArgumentParser
import BenchSupport
import Foundation
import Logging
import VettIDServer
import VettIDTestSupport

/// `VaultMessagingBench`: app ↔ vault over NATS through the backend's vault worker, against a real nats-server in
/// operator mode, plaintext and sealed (scripts/bench-messaging builds it in release and runs it).
///
/// 1. The sealed session's handshake per session in process, against a bare ES256 sign + verify + X25519 agreement
///    (``HandshakeBenchmark``).
/// 2. Round trip, one request at a time: p50/p99 through the worker, against a raw NATS request/reply echo on the
///    same nats-server (the peer: what the worker adds on top of NATS itself); `echo` sealed against plaintext,
///    through the SDK and bare (``RoundTripBenchmark``).
/// 3. Answered requests per second with several apps and 1, 2, 4… worker instances in the `vault-workers` queue
///    group, the SDK's sealed and plaintext `executeHandler` among the paths.
///
/// The sealed paths' devices are enrolled through the server's HTTP API (``BenchDevices``): the vault refuses a
/// handshake from any other.
@main
struct VaultMessagingBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "VaultMessagingBench",
        abstract:
            "App-to-vault round trips (p50/p99) and requests/s through the vault worker over a real nats-server, "
            + "plaintext and sealed, and the sealed session's handshake cost."
    )

    @Option(help: "Sequential round trips measured per path (after a warm-up of 500).")
    var requests: Int = 5_000

    @Option(help: "Alternating rounds (raw, worker, …) the round trips and in-process handshakes are split into.")
    var rounds: Int = 10

    @Option(parsing: .upToNextOption, help: "Worker instances of each throughput phase, one phase per value.")
    var workers: [Int] = [1, 2, 4]

    @Option(help: "Concurrent apps in the throughput phases (each sealed one an enrolled device).")
    var clients: Int = 8

    @Option(help: "Requests each app keeps in flight.")
    var window: Int = 16

    @Option(help: "Seconds each path of a throughput phase runs (in two alternating halves).")
    var seconds: Double = 10

    @Option(help: "In-process handshakes per path (and the floor's operations).")
    var handshakes: Int = 2_000

    @Option(help: "Handshakes over NATS, one after the other, before the round trips.")
    var natsHandshakes: Int = 200

    @Option(help: "Notices waiting in the mailbox phase's device's mailbox each round.")
    var mailboxMessages: Int = 1_000

    @Option(help: "Rounds of the mailbox phase.")
    var mailboxRounds: Int = 5

    @Option(
        parsing: .upToNextOption,
        help: "The phases to run (handshake, round-trip, throughput, mailbox); all by default.")
    var phases: [Phase] = Phase.allCases

    func validate() throws {
        guard requests > 0, rounds > 0, clients > 0, window > 0, seconds > 0, handshakes >= rounds,
            natsHandshakes > 0, workers.allSatisfy({ (1...64).contains($0) })
        else {
            throw ValidationError(
                "--requests, --rounds, --clients, --window, --seconds, --nats-handshakes must be positive; "
                    + "--handshakes at least --rounds; --workers 1...64")
        }
    }

    func run() async throws {
        var logger = Logger(label: "bench")
        logger.logLevel = .error
        emit(
            "VaultMessagingBench: \(ProcessInfo.processInfo.activeProcessorCount) cores, release build: "
                + "\(Self.isReleaseBuild ? "yes" : "NO (debug: numbers are meaningless)"), nats-server \(Self.natsVersion())"
        )
        emit("")
        if phases.contains(.handshake) {
            let handshake = try await HandshakeBenchmark.run(handshakes: handshakes, requests: requests, rounds: rounds)
            MessagingReport.handshake(handshake, handshakes: handshakes, requests: requests, rounds: rounds)
        }
        if phases.contains(.roundTrip) { try await roundTrip(logger: logger) }
        if phases.contains(.throughput) { try await throughput(logger: logger) }
        if phases.contains(.mailbox) {
            let result = try await MailboxBenchmark.run(
                messages: mailboxMessages, rounds: mailboxRounds, logger: logger)
            MessagingReport.mailbox(result, messages: mailboxMessages)
        }
    }

    /// One server with one worker; an SDK app and a bare app, each an enrolled device of its own member.
    private func roundTrip(logger: Logger) async throws {
        let server = try await BenchDevices.startServer(workers: 1, logger: logger)
        let devices = try await BenchDevices.enroll(2, on: server, logger: logger)
        for worker in server.components.vaultWorkers { try await worker.waitUntilReady() }
        let sdk = try await SDKApp.connect(devices[0], logger: logger)
        let sampled = try await RoundTripBenchmark.run(
            BenchConnections(server: server), sdk: sdk, sealedDevice: devices[1], requests: requests, warmup: 500,
            rounds: rounds, handshakes: natsHandshakes)
        await sdk.close()
        await server.stop()
        MessagingReport.roundTrip(sampled, rounds: rounds)
    }

    /// One server per worker count, with `clients` enrolled devices (each SDK app one of them; the worker path's
    /// apps use their members too).
    private func throughput(logger: Logger) async throws {
        MessagingReport.throughputHeader(clients: clients, window: window, seconds: seconds)
        for count in workers {
            let server = try await BenchDevices.startServer(workers: count, logger: logger)
            let connections = BenchConnections(server: server)
            let devices = try await BenchDevices.enroll(clients, on: server, logger: logger)
            var apps: [SDKApp] = []
            for device in devices { apps.append(try await SDKApp.connect(device, logger: logger)) }
            for worker in server.components.vaultWorkers { try await worker.waitUntilReady() }
            // Every app's first handshake, and a warm-up of both SDK paths, before the measurement.
            _ = try await ThroughputBenchmark.sdk(apps, sealed: false, window: window, seconds: 0.5)
            _ = try await ThroughputBenchmark.sdk(apps, sealed: true, window: window, seconds: 0.5)
            var handshakesBefore = 0
            for app in apps { handshakesBefore += app.handshakes }
            // Two alternating halves each (raw, shaped, on loop, worker, SDK plaintext, SDK sealed, twice), for the
            // same reason as the round trips.
            var phase = ThroughputPhase()
            let half = seconds / 2
            // The access log writes a path's entries after its requests: each path starts once the previous one's
            // are written, so no path pays for another's (the raw peers write none).
            let settle = { await server.components.vaultAccessLog.flush() }
            for _ in 0..<2 {
                phase.raw.add(
                    try await ThroughputBenchmark.raw(
                        connections, clients: clients, window: window, seconds: half, responders: count))
                phase.shaped.add(
                    try await ThroughputBenchmark.raw(
                        connections, clients: clients, window: window, seconds: half, responders: count,
                        vaultShaped: true))
                phase.onLoop.add(
                    try await ThroughputBenchmark.raw(
                        connections, clients: clients, window: window, seconds: half, responders: count,
                        vaultShaped: true, onEventLoop: true))
                phase.floor.add(
                    try await ThroughputBenchmark.raw(
                        connections, clients: clients, window: window, seconds: half, responders: count,
                        vaultShaped: true, onEventLoop: true, sealedFloor: true))
                phase.worker.add(
                    try await ThroughputBenchmark.run(
                        connections, members: devices.map(\.namespace), window: window, seconds: half))
                await settle()
                phase.sdkPlaintext.add(
                    try await ThroughputBenchmark.sdk(apps, sealed: false, window: window, seconds: half))
                await settle()
                phase.sdkSealed.add(
                    try await ThroughputBenchmark.sdk(apps, sealed: true, window: window, seconds: half))
                await settle()
            }
            for app in apps {
                phase.handshakes += app.handshakes
                await app.close()
            }
            phase.handshakes -= handshakesBefore
            await server.stop()
            MessagingReport.throughput(phase, workers: count)
        }
    }

    /// The parts of a run.
    enum Phase: String, CaseIterable, ExpressibleByArgument {
        case handshake
        case roundTrip = "round-trip"
        case throughput
        case mailbox
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
