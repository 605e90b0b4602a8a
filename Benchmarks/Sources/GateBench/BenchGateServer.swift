// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import BenchSupport
import Foundation
import Logging
import VettIDAttestation
import VettIDServer

/// The VettID server, in process on loopback, with SQLite in a temporary directory (or PostgreSQL) and a Gate that proxies
/// `/proxy/bench/**` to the upstream and accepts one development token (as `vettid demo` configures it).
struct BenchGateServer {
    /// The app id the Gate is configured with; the client's team and bundle id.
    static let teamID = "VETTIDBNCH"
    static let bundleID = "dev.vettid.bench"

    private let server: LoopbackServer

    /// `http://127.0.0.1:<port>`.
    var baseURL: String { server.baseURL.absoluteString }

    static func start(upstreamBaseURL: String, developmentToken: String, databaseURL: String?) async throws
        -> BenchGateServer
    {
        var gate = GateConfiguration(
            appID: "\(teamID).\(bundleID)",
            allowedEnvironments: [.development],
            developmentTokens: [developmentToken],
            upstreams: ["bench": GateUpstream(baseURL: upstreamBaseURL + "/api")]
        )
        gate.tokenLifetime = .seconds(3600)
        var logger = Logger(label: "gatebench-server")
        logger.logLevel = .error
        let server = try await LoopbackServer.start(label: "vettid-gatebench", logger: logger) { configuration in
            configuration.logLevel = .error
            configuration.gate = gate
            configuration.databaseURL = databaseURL
            // Only the auth routes are rate limited; raised anyway so no limit can shape a run.
            configuration.limits.perIP = .init(capacity: 1_000_000, window: .seconds(60))
        }
        return BenchGateServer(server: server)
    }

    func stop() async { await server.stop() }
}
