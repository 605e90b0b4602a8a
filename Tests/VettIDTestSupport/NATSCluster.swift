// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// A cluster of real nats-servers on loopback: each node with a server_name and routes to all others, optionally with
// JetStream (each node its own store), and restarts of one node with its store kept.

import NIOConcurrencyHelpers

/// A cluster of nats-servers started for one test: nodes `n1`…`nN` (their `server_name`s) in the cluster `test`,
/// each routed to every other. With `jetStream`, every node runs JetStream with its own store, so the cluster can
/// hold replicated streams. ``cleanUp()`` stops every node and removes its directory; tests call it in `defer`.
public final class NATSCluster: Sendable {
    /// The nodes, in order (`n1` first); a node stopped and restarted is replaced here by its new process.
    public var nodes: [NATSServerProcess] { current.withLockedValue { $0 } }
    /// The nodes' `server_name`s, in order.
    public let names: [String]
    /// Every node's client URL, for a client's server pool.
    public var urls: [String] { nodes.map(\.url) }

    private let current: NIOLockedValueBox<[NATSServerProcess]>
    private let retired = NIOLockedValueBox<[NATSServerProcess]>([])

    /// Starts `size` nodes (at least 2) and waits until each accepts connections. The routes (and, with JetStream,
    /// the meta group's leader) form afterwards, asynchronously: wait for what the test needs.
    public init(size: Int = 3, jetStream: Bool = false, configuration: String = "") async throws {
        precondition(size >= 2, "a cluster has two nodes or more")
        let routes = try (0..<size).map { _ in try LoopbackPort.reserve() }
        let names = (1...size).map { "n\($0)" }
        var nodes: [NATSServerProcess] = []
        do {
            for index in 0..<size {
                let others = routes.indices.filter { $0 != index }.map { "nats-route://127.0.0.1:\(routes[$0])" }
                let node = """
                    server_name: \(names[index])
                    cluster {
                      name: test
                      listen: 127.0.0.1:\(routes[index])
                      routes: [ \(others.joined(separator: ", ")) ]
                    }
                    \(configuration)
                    """
                nodes.append(try await NATSServerProcess(configuration: node, jetStream: jetStream))
            }
        } catch {
            for node in nodes { node.cleanUp() }
            throw error
        }
        self.names = names
        current = NIOLockedValueBox(nodes)
    }

    /// The node whose `server_name` is `name`.
    public func node(named name: String) -> NATSServerProcess? {
        names.firstIndex(of: name).map { nodes[$0] }
    }

    /// Stops the node named `name` (SIGTERM; its store stays).
    public func stop(_ name: String) {
        node(named: name)?.stop()
    }

    /// Starts the node named `name` again, with its configuration, port and store.
    @discardableResult
    public func restart(_ name: String) async throws -> NATSServerProcess {
        guard let index = names.firstIndex(of: name) else {
            throw NATSServerProcess.SkipError("no node named \(name) in the cluster")
        }
        let old = nodes[index]
        old.stop()
        let restarted = try await old.restarted()
        current.withLockedValue { $0[index] = restarted }
        retired.withLockedValue { $0.append(old) }
        return restarted
    }

    /// Stops every node and removes their directories.
    public func cleanUp() {
        for node in nodes { node.cleanUp() }
        for node in retired.withLockedValue({ $0 }) { node.stop() }
    }
}
