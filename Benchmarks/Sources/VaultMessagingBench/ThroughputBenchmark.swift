// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import BenchSupport
import Foundation
import NATSClient
import NIOCore
import VettIDCrypto
import VettIDMessaging
import VettIDNats

/// Several apps, each keeping a window of requests in flight, for a fixed time: answered requests per second.
enum ThroughputBenchmark {
    struct Result {
        var answered: Int
        var elapsed: Duration
        /// Requests the SDK gave up on with a sealed session's `out_of_order` (after its one retry).
        var refused = 0
        var perSecond: Double { Double(answered) / max(elapsed.microseconds / 1e6, 1e-9) }

        /// Adds another run of the same path.
        mutating func add(_ other: Result) {
            answered += other.answered
            elapsed += other.elapsed
            refused += other.refused
        }
    }

    /// A request the vault refused as `out_of_order` even after the SDK's retry: counted, not fatal (the load
    /// keeps going, the report shows the count).
    struct OutOfOrder: Error {}

    /// Through the vault worker(s) the server runs: one app (a new connection) per member of `members`.
    static func run(_ connections: BenchConnections, members: [VaultNamespace], window: Int, seconds: Double)
        async throws -> Result
    {
        var apps: [(NATSClient, String)] = []
        for namespace in members {
            apps.append((try await connections.app(in: namespace), namespace.forVault(.execute)))
        }
        return try await load(apps, window: window, seconds: seconds, sealedFloor: false)
    }

    /// Through the vault worker(s) with the SDK: `executeHandler(.echo)` of each app's sealed or plaintext
    /// `OwnerSpaceClient`, `window` at a time. The apps stay connected (the caller closes them).
    static func sdk(_ apps: [SDKApp], sealed: Bool, window: Int, seconds: Double) async throws -> Result {
        try await load(
            apps.map { app -> Request in
                let client = sealed ? app.sealed : app.plaintext
                return { _, count in
                    do {
                        try await SDKApp.echo(client, .integer(Int64(count)))
                    } catch let error as NatsConnectionError where error.code.rawValue == "out_of_order" {
                        throw OutOfOrder()
                    }
                }
            },
            window: window, seconds: seconds)
    }

    /// The peer: the same load against `responders` raw echo responders in a queue group (no parsing, no dispatch).
    ///
    /// - Parameter vaultShaped: Requests on `BenchSpace.{guid}.forVault.execute` with replies under
    ///   `BenchSpace.{guid}.forApp.inbox`, and the responders on the wildcard `BenchSpace.*.forVault.>`: the
    ///   lengths and the wildcard subscription of the worker's path (nats-server matches them and the clients parse
    ///   them, longer subjects costing more of both). Otherwise the short `bench.raw.echo` and a literal
    ///   subscription.
    /// - Parameter onEventLoop: The responders' loops run on their connections' event loops (as the worker's lanes
    ///   do by default) instead of Swift's global executor.
    /// - Parameter sealedFloor: Requests and answers padded and sealed as envelopes are, and opened on the other
    ///   side (``SealedFloor``): the least a sealed exchange adds.
    static func raw(
        _ connections: BenchConnections, clients: Int, window: Int, seconds: Double, responders count: Int,
        vaultShaped: Bool = false, onEventLoop: Bool = false, sealedFloor: Bool = false
    ) async throws -> Result {
        let root = BenchConnections.vaultShapedRoot
        var responders: [(NATSClient, Task<Void, Never>)] = []
        for index in 0..<count {
            let responder = try await connections.raw(name: "responder\(index)")
            let requests = try responder.subscribe(
                to: vaultShaped ? "\(root).*.forVault.>" : "bench.raw.echo", queue: "bench")
            try await responder.flush()
            let task = Task(executorPreference: onEventLoop ? responder.taskExecutor : nil) {
                for await request in requests {
                    guard let reply = request.replyTo else { continue }
                    var header: [UInt8] = []
                    var payload = Array(request.payload.readableBytesView)
                    if sealedFloor {
                        guard let opened = try? SealedFloor.open(payload, key: SealedFloor.requestKey) else { continue }
                        (header, payload) = opened
                    }
                    guard let message = try? VaultMessage.decode(payload) else { continue }
                    var answer = VaultResponse.handlerResult(
                        requestID: message.id, handlerID: "echo", result: .success(.null), timestamp: 0
                    ).encoded()
                    if sealedFloor {
                        guard let sealed = try? SealedFloor.seal(answer, header: header, key: SealedFloor.responseKey)
                        else { continue }
                        answer = sealed
                    }
                    try? responder.publish(answer, to: reply)
                }
            }
            responders.append((responder, task))
        }
        var apps: [(NATSClient, String)] = []
        for index in 0..<clients {
            guard vaultShaped else {
                apps.append((try await connections.raw(name: "client\(index)"), "bench.raw.echo"))
                continue
            }
            let space = "\(root).\(UUID().uuidString.lowercased())"
            let app = try await connections.raw(name: "client\(index)", inboxPrefix: "\(space).forApp.inbox")
            apps.append((app, "\(space).forVault.execute"))
        }
        let result = try await load(apps, window: window, seconds: seconds, sealedFloor: sealedFloor)
        for (responder, task) in responders {
            task.cancel()
            await responder.close()
        }
        return result
    }

    /// `window` lanes per app of NATS request/reply to `subject`, each an `execute echo` whose answer must succeed
    /// (sealed as ``SealedFloor`` seals, with `sealedFloor`); the apps are closed afterwards.
    private static func load(_ apps: [(NATSClient, String)], window: Int, seconds: Double, sealedFloor: Bool)
        async throws -> Result
    {
        let result = try await load(
            apps.enumerated().map { index, app -> Request in
                let (client, subject) = app
                return { lane, count in
                    var payload = VaultMessage.executeHandler(
                        id: "l\(lane)-\(count)", handlerID: "echo", payload: .integer(Int64(count)), timestamp: 0
                    ).encoded()
                    if sealedFloor {
                        // A counter unique per app, lane and request: the request key's nonces never repeat.
                        let counter = UInt64(index) << 48 | UInt64(lane) << 32 | UInt64(count)
                        payload = try SealedFloor.seal(
                            payload, header: SealedFloor.header(counter: counter), key: SealedFloor.requestKey)
                    }
                    let reply = try await client.request(ByteBuffer(bytes: payload), to: subject)
                    var answer = Array(reply.payload.readableBytesView)
                    if sealedFloor { answer = try SealedFloor.open(answer, key: SealedFloor.responseKey).plain }
                    guard try VaultResponse.decode(answer).isSuccess else { throw BenchFailure("a request failed") }
                }
            },
            window: window, seconds: seconds)
        for (app, _) in apps { await app.close() }
        return result
    }

    /// One request of an app: its lane, and how many requests the lane sent before it.
    typealias Request = @Sendable (_ lane: Int, _ count: Int) async throws -> Void

    /// `window` lanes per app, each sending its next request when the last was answered, until `seconds` passed.
    private static func load(_ apps: [Request], window: Int, seconds: Double) async throws -> Result {
        let clock = ContinuousClock()
        let started = clock.now
        let deadline = started + .milliseconds(Int64(seconds * 1000))
        let (answered, refused) = try await withThrowingTaskGroup(of: (Int, Int).self) { group in
            for request in apps {
                for lane in 0..<window {
                    group.addTask {
                        var (count, refused) = (0, 0)
                        while clock.now < deadline {
                            do {
                                try await request(lane, count + refused)
                                count += 1
                            } catch is OutOfOrder {
                                refused += 1
                            }
                        }
                        return (count, refused)
                    }
                }
            }
            return try await group.reduce((0, 0)) { ($0.0 + $1.0, $0.1 + $1.1) }
        }
        return Result(answered: answered, elapsed: clock.now - started, refused: refused)
    }
}
