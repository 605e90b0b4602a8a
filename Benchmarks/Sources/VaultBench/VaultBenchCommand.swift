// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import ArgumentParser
import AsyncHTTPClient
import BenchSupport
import Foundation
import NIOCore
import NIOPosix
import VettIDServer

/// `VaultBench`: vault enrollments and authentications per second at the server's Argon2id settings, with the
/// process's peak resident memory per phase, against Argon2id measured alone in the same process (scripts/bench-vault
/// builds it in release and runs it).
///
/// Server, SDK clients and load share one process on loopback, so the memory figures cover all of them.
@main
struct VaultBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "VaultBench",
        abstract:
            "Vault enrollments/s and authentications/s at the configured Argon2id parameters, with peak memory per phase."
    )

    @Option(help: "Concurrent clients in the enrollment phase.")
    var clients: Int = 16

    @Option(help: "Devices to enroll (full start → attestation → password → finalize flow each).")
    var enrollments: Int = 128

    @Option(parsing: .upToNextOption, help: "Concurrent clients of each authentication phase, one phase per value.")
    var authClients: [Int] = [16, 64]

    @Option(help: "Seconds each authentication phase runs.")
    var seconds: Double = 30

    @Option(help: "Argon2id hashes timed one at a time for the peer measurement.")
    var argon2Hashes: Int = 8

    @Option(help: "postgres://… to run the server on PostgreSQL instead of SQLite in a temporary directory.")
    var databaseURL: String?

    func validate() throws {
        guard (1...1024).contains(clients), authClients.allSatisfy({ (1...1024).contains($0) }), !authClients.isEmpty
        else {
            throw ValidationError("--clients and --auth-clients must be 1...1024")
        }
        guard enrollments >= max(clients, authClients.max() ?? 0) else {
            throw ValidationError(
                "--enrollments must be at least --clients and the largest --auth-clients (one device per client)")
        }
        guard seconds > 0, argon2Hashes >= 1 else {
            throw ValidationError("--seconds must be > 0 and --argon2-hashes >= 1")
        }
    }

    func run() async throws {
        let defaults = ServerConfiguration()
        let parameters = defaults.argon2
        let slots = defaults.maxConcurrentHashes
        emit(
            "VaultBench: \(ProcessInfo.processInfo.activeProcessorCount) cores, release build: "
                + "\(Self.isReleaseBuild ? "yes" : "NO (debug: numbers are meaningless)"), store: \(databaseURL == nil ? "SQLite" : "PostgreSQL")"
        )
        emit(
            "Argon2id (server defaults): t=\(parameters.iterations), m=\(parameters.memoryKiB) KiB, p=\(parameters.parallelism), "
                + "max_concurrent_hashes=\(slots), blocking thread pool \(NIOSingletons.blockingPoolThreadCountSuggestion) threads"
        )
        emit("")

        let argon2 = try await Argon2Peer.measure(
            parameters: parameters, maxConcurrentHashes: slots, serialCount: argon2Hashes)
        VaultReport.printArgon2(argon2, parameters: parameters, slots: slots, count: argon2Hashes)
        emit("")

        let developmentToken = UUID().uuidString
        let server = try await BenchVaultServer.start(databaseURL: databaseURL, developmentToken: developmentToken)
        var pool = HTTPClient.Configuration()
        pool.connectionPool = .init(
            idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: max(clients, authClients.max() ?? 1))
        let client = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: pool)
        let outcome: Result<Void, any Error>
        do {
            try await measure(server: server, client: client, developmentToken: developmentToken, argon2: argon2)
            outcome = .success(())
        } catch {
            outcome = .failure(error)
        }
        try? await client.shutdown()
        await server.stop()
        try outcome.get()
    }

    private func measure(server: BenchVaultServer, client: HTTPClient, developmentToken: String, argon2: Argon2Costs)
        async throws
    {
        guard let baseURL = URL(string: server.baseURL) else { throw BenchFailure("bad server URL \(server.baseURL)") }
        let slots = server.configuration.maxConcurrentHashes
        let hashBytes = Int(server.configuration.argon2.memoryKiB) * 1024

        // One member per device the largest authentication phase needs (a member has one live credential), and
        // at most 20 pending invitations each.
        let members = max(authClients.max() ?? 1, clients, (enrollments + 19) / 20)
        emit(
            "setup: \(members) members (register + login + invitations), \(enrollments) invitations, \(clients) at a time..."
        )
        let setup = BenchMembers(
            client: client, baseURL: server.baseURL, runID: String(UUID().uuidString.prefix(8)).lowercased())
        let invitations = try await withThrowingTaskGroup(of: [(Int, [String])].self) { group in
            for worker in 0..<min(clients, members) {
                group.addTask {
                    var made: [(Int, [String])] = []
                    for member in stride(from: worker, to: members, by: clients) {
                        let count = enrollments / members + (member < enrollments % members ? 1 : 0)
                        made.append((member, try await setup.invitations(member: member, count: count)))
                    }
                    return made
                }
            }
            var all = [[String]](repeating: [], count: members)
            for try await made in group { for (member, payloads) in made { all[member] = payloads } }
            return all
        }

        emit("enroll: \(enrollments) devices, \(clients) at a time...")
        let load = VaultLoad(
            baseURL: baseURL, transport: BenchTransport(client: client), developmentToken: developmentToken)
        let (enrolled, devices) = try await load.enroll(invitations: invitations, clients: clients)
        VaultReport.printPhaseHeader()
        VaultReport.printPhase("enroll", enrolled, argon2: argon2, slots: slots, hashBytes: hashBytes)
        let live = devices.compactMap { $0 }
        guard enrolled.errors == 0, live.count == members else {
            throw BenchFailure(
                "\(enrolled.errors) enrollments failed (first: \(enrolled.firstError ?? "?")); no valid numbers")
        }

        var phases: [PhaseResult] = []
        for count in authClients {
            emit("auth: \(count) devices authenticate once untimed, then \(Int(seconds)) s timed...")
            let phase = try await load.authenticate(devices: Array(live.prefix(count)), duration: .seconds(seconds))
            VaultReport.printPhase("auth", phase, argon2: argon2, slots: slots, hashBytes: hashBytes)
            phases.append(phase)
            guard phase.errors == 0 else {
                throw BenchFailure(
                    "\(phase.errors) authentications failed (first: \(phase.firstError ?? "?")); no valid numbers")
            }
        }
        emit("")
        VaultReport.printSummary(
            enrolled: enrolled, auth: phases, argon2: argon2, slots: slots,
            poolThreads: NIOSingletons.blockingPoolThreadCountSuggestion, hashBytes: hashBytes)
    }

    static var isReleaseBuild: Bool {
        #if DEBUG
            false
        #else
            true
        #endif
    }
}
