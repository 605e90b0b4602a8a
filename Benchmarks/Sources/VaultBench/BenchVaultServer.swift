// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import BenchSupport
import Foundation
import Logging
import VettIDServer

/// The VettID server in process on loopback: keys in a temporary directory, SQLite there too unless a PostgreSQL
/// URL is given, development-token attestation, the default Argon2id settings, and every rate limit that a
/// benchmark would hit raised out of the way.
struct BenchVaultServer {
    /// What the server runs with (for the report).
    let configuration: ServerConfiguration
    private let server: LoopbackServer

    /// `http://127.0.0.1:<port>`.
    var baseURL: String { server.baseURL.absoluteString }

    static func start(databaseURL: String?, developmentToken: String) async throws -> BenchVaultServer {
        var logger = Logger(label: "vaultbench-server")
        logger.logLevel = .error
        let server = try await LoopbackServer.start(label: "vettid-vaultbench", logger: logger) { configuration in
            configuration.databaseURL = databaseURL
            configuration.logLevel = .error
            configuration.gate = GateConfiguration(developmentTokens: [developmentToken])
            let unlimited = RateLimiter.Rule(capacity: 1_000_000, window: .seconds(60))
            configuration.limits.perIP = unlimited
            configuration.vault.enrollmentStartsPerIP = unlimited
            configuration.vault.actionsPerCredential = unlimited
        }
        return BenchVaultServer(configuration: server.components.configuration, server: server)
    }

    func stop() async { await server.stop() }
}
