// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import AsyncHTTPClient
import BenchSupport
import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import VettIDClient
import VettIDCrypto

/// What ``ProxyBenchmark`` measured: rounds of a direct run followed by a proxied run.
struct ProxyResults: Sendable {
    struct Round: Sendable {
        /// `GET <upstream>/api/echo`.
        var direct: LoadResult
        /// `GET <server>/proxy/bench/echo` with the Gate token and a fresh DPoP proof per request.
        var proxied: LoadResult

        var ratio: Double { proxied.perSecond / direct.perSecond }
    }

    var rounds: [Round]

    /// The median of the rounds' ratios.
    var medianRatio: Double { median(rounds.map(\.ratio)) }

    /// Failed requests over all rounds.
    var errors: (direct: Int, proxied: Int) {
        (rounds.map(\.direct.errors).reduce(0, +), rounds.map(\.proxied.errors).reduce(0, +))
    }

    /// The first error of any run.
    var firstError: String? {
        rounds.lazy.compactMap { $0.direct.firstError ?? $0.proxied.firstError }.first
    }
}

/// The Gate proxy's throughput against a direct call to the same upstream, in one process on loopback.
///
/// Starts the upstream and the VettID server, obtains a Gate access token with the SDK's `GateClient` and a
/// `DevelopmentTokenAttester`, then runs the same closed-loop load twice: straight at the upstream, and through
/// `/proxy/bench/` with `Authorization: DPoP <token>` and a new proof (fresh `jti`, `ath`, the latest
/// `DPoP-Nonce` seen in any response) per request.
struct ProxyBenchmark: Sendable {
    let settings: LoadSettings
    /// PostgreSQL for the server's store; `nil` for SQLite.
    let databaseURL: String?
    /// Sign each request's proof in the load loop instead of before the timed runs.
    let signInLoop: Bool
    /// Direct-then-proxied rounds: the machine's speed drifts between runs, a ratio within a round is steadier.
    let rounds: Int

    func run() async throws -> ProxyResults {
        let upstream = try await BenchUpstream.start()
        let developmentToken = UUID().uuidString
        let server: BenchGateServer
        do {
            server = try await BenchGateServer.start(
                upstreamBaseURL: upstream.baseURL, developmentToken: developmentToken, databaseURL: databaseURL)
        } catch {
            await upstream.stop()
            throw error
        }
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(
            idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: settings.connections)
        let client = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: configuration)
        let outcome: Result<ProxyResults, any Error>
        do {
            outcome = .success(
                try await measure(
                    client: client, upstream: upstream, server: server, developmentToken: developmentToken))
        } catch {
            outcome = .failure(error)
        }
        try? await client.shutdown()
        await server.stop()
        await upstream.stop()
        return try outcome.get()
    }

    private func measure(
        client: HTTPClient, upstream: BenchUpstream, server: BenchGateServer, developmentToken: String
    ) async throws -> ProxyResults {
        let credentials = try await Self.gateCredentials(server: server, developmentToken: developmentToken)
        let builder = DPoPProofBuilder(signer: credentials.signer)
        let token = credentials.token
        let directURL = upstream.baseURL + "/api/echo"
        let proxiedURL = server.baseURL + "/proxy/bench/echo"
        let nonce = NIOLockedValueBox<String?>(nil)

        let signed = NIOLockedValueBox(ProofPool(proofs: []))
        let makeProxied: LoadGenerator.MakeRequest = {
            var request = HTTPClientRequest(url: proxiedURL)
            let proof: String
            if let ready = signed.withLockedValue({ $0.next() }) {
                proof = ready
            } else {
                proof = try await builder.proof(
                    method: "GET", url: proxiedURL, accessToken: token, nonce: nonce.withLockedValue { $0 })
            }
            request.headers.add(name: "Authorization", value: "DPoP " + token)
            request.headers.add(name: "DPoP", value: proof)
            return request
        }
        let rememberNonce: LoadGenerator.Observe = { response in
            if let fresh = response.headers.first(name: "DPoP-Nonce") { nonce.withLockedValue { $0 = fresh } }
        }

        // The first proof has no nonce: the server answers 401 use_dpop_nonce with one; the second must pass.
        for attempt in 1...2 {
            let response = try await client.execute(try await makeProxied(), timeout: .seconds(30))
            rememberNonce(response)
            let body = try await response.body.collect(upTo: 1 << 20)
            if response.status.code == 200 { break }
            if attempt == 2 || nonce.withLockedValue({ $0 }) == nil {
                throw BenchFailure(
                    "the proxied check request answered \(response.status.code): \(String(buffer: body).prefix(300))")
            }
        }

        let load = LoadGenerator(client: client, settings: settings)
        var results: [ProxyResults.Round] = []
        for _ in 0..<rounds {
            let direct = try await load.run(makeRequest: { HTTPClientRequest(url: directURL) }, observe: { _ in })
            if !signInLoop {
                // Devices sign on their own cores: the proofs for this proxied run are signed now (fresh `iat`, the
                // nonce the server gave last), enough for 2.5 times the direct rate (more than the proxy can
                // reach). A request that finds the pool empty signs its own proof, so a run is never short of them.
                let needed = Int(direct.perSecond * 2.5 * (settings.duration + settings.warmup).seconds) + 1_000
                let pool = try await ProofPool.sign(
                    count: needed, builder: builder, url: proxiedURL, token: token,
                    nonce: nonce.withLockedValue { $0 })
                signed.withLockedValue { $0 = pool }
            }
            let proxied = try await load.run(makeRequest: makeProxied, observe: rememberNonce)
            results.append(.init(direct: direct, proxied: proxied))
        }
        return ProxyResults(rounds: results)
    }

    /// A Gate token from the development grant, and the device key it is bound to.
    private static func gateCredentials(server: BenchGateServer, developmentToken: String) async throws -> (
        token: String, signer: any DPoPSigner
    ) {
        guard let baseURL = URL(string: server.baseURL) else { throw BenchFailure("bad server URL \(server.baseURL)") }
        let store = InMemorySecureStore()
        let gate = GateClient(
            configuration: try GateClientConfiguration(
                baseURL: baseURL, teamID: BenchGateServer.teamID, bundleID: BenchGateServer.bundleID, logLevel: .error),
            deviceKeyStore: SoftwareDeviceKeyStore(store: store),
            attester: DevelopmentTokenAttester(token: developmentToken),
            store: store
        )
        let token = try await gate.accessToken()
        let key = try await gate.deviceKeyStore.deviceKey()
        return (token.value, key.signer)
    }
}

/// Proofs signed before a timed run, handed out once each.
struct ProofPool: Sendable {
    private let proofs: [String]
    private var index = 0

    init(proofs: [String]) { self.proofs = proofs }

    /// The next unused proof, or `nil` when all were handed out.
    mutating func next() -> String? {
        guard index < proofs.count else { return nil }
        defer { index += 1 }
        return proofs[index]
    }

    /// Signs `count` proofs for `GET url` on every core.
    static func sign(count: Int, builder: DPoPProofBuilder, url: String, token: String, nonce: String?)
        async throws -> ProofPool
    {
        let signed = try await Throughput.measure(
            count: count, tasks: ProcessInfo.processInfo.activeProcessorCount
        ) { range in
            var proofs: [String] = []
            proofs.reserveCapacity(range.count)
            for _ in range {
                proofs.append(try await builder.proof(method: "GET", url: url, accessToken: token, nonce: nonce))
            }
            return proofs
        }
        return ProofPool(proofs: signed.outputs)
    }
}
