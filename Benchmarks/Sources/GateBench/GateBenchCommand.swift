// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import ArgumentParser
import BenchSupport
import Foundation

/// `GateBench`: DPoP proofs created and verified per second, and the Gate proxy's throughput as a ratio of a
/// direct call to the same upstream, measured in one run on one machine (scripts/bench-gate builds it in
/// release and runs it).
///
/// Every number it prints is either a rate measured in this run or a ratio of two such rates; absolute rates
/// depend on the machine, the ratios much less.
@main
struct GateBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "GateBench",
        abstract:
            "DPoP proofs created/verified per second and the Gate proxy's overhead against a direct upstream call."
    )

    @Option(help: "Seconds each HTTP measurement runs (direct, proxied).")
    var seconds: Double = 10

    @Option(help: "Seconds of warm-up before each HTTP measurement.")
    var warmup: Double = 2

    @Option(
        help:
            "Rounds of the proof measurements and of a direct run followed by a proxied run; each ratio reported is the rounds' median."
    )
    var rounds: Int = 3

    @Option(help: "Concurrent HTTP clients (one connection each).")
    var connections: Int = 32

    @Option(help: "Proofs created and verified per measurement (single-threaded and all cores).")
    var proofs: Int = 20_000

    @Flag(help: "Only the DPoP proof measurements, no HTTP.")
    var proofsOnly = false

    @Flag(
        help:
            "Sign each proxied request's proof inside the load loop (default: signed before the timed runs, as devices sign on their own cores)."
    )
    var signInLoop = false

    @Option(help: "A PostgreSQL URL for the server's store (default: SQLite in a temporary directory).")
    var databaseURL: String?

    func validate() throws {
        guard seconds > 0, warmup >= 0 else { throw ValidationError("--seconds must be > 0 and --warmup >= 0") }
        guard (1...4096).contains(connections) else { throw ValidationError("--connections must be 1...4096") }
        guard (1...20).contains(rounds) else { throw ValidationError("--rounds must be 1...20") }
        guard proofs >= 100 else { throw ValidationError("--proofs must be at least 100") }
    }

    func run() async throws {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        print(
            "GateBench: \(cores) cores, release build: \(Self.isReleaseBuild ? "yes" : "NO (debug: numbers are meaningless)")"
        )
        print("")
        let proofResults = try await ProofBenchmark(count: proofs, cores: cores, rounds: rounds).run()
        BenchReport.printProofs(proofResults, count: proofs, cores: cores, rounds: rounds)
        guard !proofsOnly else { return }

        print("")
        let settings = LoadSettings(connections: connections, duration: .seconds(seconds), warmup: .seconds(warmup))
        print("Store: \(databaseURL == nil ? "SQLite (temporary directory)" : "PostgreSQL")")
        print(
            "Proofs: \(signInLoop ? "signed in the load loop (the load generator's signing shares the cores)" : "signed before the timed runs (client signing off the measured cores)")"
        )
        let proxyResults = try await ProxyBenchmark(
            settings: settings, databaseURL: databaseURL, signInLoop: signInLoop, rounds: rounds
        ).run()
        BenchReport.printProxy(proxyResults, settings: settings, proofs: proofResults, cores: cores)
        let errors = proxyResults.errors
        guard errors.direct == 0, errors.proxied == 0 else {
            throw BenchFailure(
                "\(errors.direct) direct and \(errors.proxied) proxied requests failed "
                    + "(first: \(proxyResults.firstError ?? "?")); the ratio above is not valid")
        }
    }

    static var isReleaseBuild: Bool {
        #if DEBUG
            false
        #else
            true
        #endif
    }
}
