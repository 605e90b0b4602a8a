// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Logging
import NATSClient
import Testing
import VettIDServer
import VettIDTestSupport

/// Three nats-server nodes routed into one cluster, each in operator mode with the deployment's trust and its own
/// full resolver directory, as docs/operations.md describes.
struct NATSCluster {
    let nodes: [LocalNATSServer]

    /// Starts `count` nodes for the trust of `dataDirectory` (created if missing) under `root`, and waits until
    /// every node has a route to every other.
    static func start(dataDirectory: String, root: String, count: Int = 3, logger: Logger) async throws -> NATSCluster {
        let trust = try NATSTrust.loadOrCreate(dataDirectory: dataDirectory, logger: logger)
        let accountJWT = try trust.applicationAccountJWT(
            revocations: [:], issuedAt: Int64(Date().timeIntervalSince1970))
        // nats-server's own ports: the kernel's picks (LoopbackPort's ports were refused as in use by nats-server
        // twice in one run, cause not found; LocalNATSServer checks its own log line before it counts as started).
        // A pick can still be taken before the node binds it (an outgoing connection of another test gets the same
        // ephemeral port): the node then fails with "address already in use", and the cluster starts again on
        // fresh ports, three times at most.
        var nodes: [LocalNATSServer] = []
        for attempt in 1...3 {
            do {
                nodes = try await startNodes(trust: trust, accountJWT: accountJWT, root: root, count: count)
                break
            } catch let error as LocalNATSServer.Failure
                where attempt < 3 && error.description.contains("address already in use")
            {
                continue
            }
        }
        let cluster = NATSCluster(nodes: nodes)
        let routed = await eventually(timeout: .seconds(20)) {
            cluster.nodes.allSatisfy {
                $0.log.components(separatedBy: "Route connection created").count - 1 >= count - 1
            }
        }
        guard routed else {
            cluster.stop()
            throw E2EFailure("the cluster's routes did not form: \(nodes.map { String($0.log.suffix(800)) })")
        }
        return cluster
    }

    /// Starts the nodes on fresh ports; stops those it started if one fails.
    private static func startNodes(trust: NATSTrust, accountJWT: String, root: String, count: Int) async throws
        -> [LocalNATSServer]
    {
        var ports: [Int] = []
        while ports.count < 2 * count {
            let port = try LocalNATSServer.freePort()
            if !ports.contains(port) { ports.append(port) }
        }
        let (clientPorts, routePorts) = (Array(ports[..<count]), Array(ports[count...]))
        var nodes: [LocalNATSServer] = []
        do {
            for index in 0..<count {
                let routes = routePorts.indices.filter { $0 != index }.map {
                    "nats-route://127.0.0.1:\(routePorts[$0])"
                }
                nodes.append(
                    try await LocalNATSServer.start(
                        trust: trust, applicationAccountJWT: accountJWT, directory: root + "/node-\(index + 1)",
                        port: clientPorts[index], serverName: "node-\(index + 1)",
                        cluster: .init(port: routePorts[index], routes: routes)))
            }
        } catch {
            for node in nodes { node.stop() }
            throw error
        }
        return nodes
    }

    func stop() {
        for node in nodes { node.stop() }
    }

    /// The node at `index` restarted on the same ports, configuration and resolver directory.
    func restarting(_ index: Int) async throws -> NATSCluster {
        var nodes = self.nodes
        nodes[index] = try await nodes[index].restarted()
        return NATSCluster(nodes: nodes)
    }
}

/// Two backend instances on one PostgreSQL database and one data directory (the keys every instance shares),
/// instance A connected to node 1 of a three-node NATS cluster and B to node 2; apps connect to node 3.
struct TwoInstances {
    let a: LiveServer
    let b: LiveServer
    let cluster: NATSCluster

    static var isAvailable: Bool {
        NATSLive.isAvailable && ProcessInfo.processInfo.environment["VETTID_TEST_DATABASE_URL"] != nil
    }

    /// - Parameters:
    ///   - publicURL: The origin both instances share behind a load balancer (DPoP `htu` is checked against it);
    ///     `nil`: each instance's own loopback address.
    nonisolated(nonsending) static func with<Result>(
        publicURL: String? = nil, _ body: (TwoInstances) async throws -> Result
    ) async throws -> Result {
        guard let base = ProcessInfo.processInfo.environment["VETTID_TEST_DATABASE_URL"] else {
            throw E2EFailure("VETTID_TEST_DATABASE_URL is not set")
        }
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("vettid-two-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        let dataDirectory = root + "/data"
        var logger = Logger(label: "e2e-cluster")
        logger.logLevel = .error
        let cluster = try await NATSCluster.start(dataDirectory: dataDirectory, root: root + "/nats", logger: logger)
        defer { cluster.stop() }
        let databaseURL = try await PostgresSchema.create(baseURL: base)
        func configure(node: Int) -> (inout ServerConfiguration) -> Void {
            { configuration in
                configuration.dataDirectory = dataDirectory
                configuration.databaseURL = databaseURL
                configuration.databaseLeaseTimeout = .seconds(30)
                configuration.nats.url = cluster.nodes[node].url
                configuration.nats.workerInstances = 1
                configuration.publicURL = publicURL
            }
        }
        return try await LiveServer.withServer(configure: configure(node: 0)) { a in
            try await LiveServer.withServer(configure: configure(node: 1)) { b in
                let instances = TwoInstances(a: a, b: b, cluster: cluster)
                for server in [a, b] {
                    let up = await eventually(timeout: .seconds(30)) {
                        server.components.natsPublisher?.isConnected == true
                    }
                    try #require(up, "an instance's system-account connection was not up within 30 s")
                    for worker in server.components.vaultWorkers { try await worker.waitUntilReady() }
                }
                return try await body(instances)
            }
        }
    }

    /// A NATS client on node `node` (0-based) with `token`.
    func connect(
        _ jwt: String, seed: String, node: Int, inboxPrefix: String = "_INBOX",
        reconnect: NATSReconnectPolicy = NATSReconnectPolicy(wait: .milliseconds(200))
    ) async throws -> NATSClient {
        let client = try NATSClient(
            configuration: NATSClient.Configuration(
                servers: [cluster.nodes[node].url], auth: .jwt(jwt, seed: seed), inboxPrefix: inboxPrefix,
                reconnect: reconnect))
        try await client.connect()
        return client
    }
}
