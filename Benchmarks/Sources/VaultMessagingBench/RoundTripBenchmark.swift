// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import BenchSupport
import Foundation
import NATSClient
import NIOCore
import VettIDCrypto
import VettIDMessaging
import VettIDNats

/// One client, one request at a time: app → worker (`execute echo`, parsed, dispatched, answered on the app's
/// inbox) against the same exchange with a raw responder that only echoes bytes, on its connection's event loop;
/// and the same `echo` sealed against plaintext, twice: through the SDK (`OwnerSpaceClient.executeHandler` with
/// and without its `VaultSessionChannel`, on one connection) and bare (``BareSealedApp`` against the benchmark's
/// plaintext worker path on the same connection).
///
/// The paths run in alternating rounds on the same nats-server (raw, shaped, worker, sealed worker, SDK plaintext,
/// SDK sealed, raw, …), so a drift of this machine's speed during the run (it is a shared 2-core VM) weighs on all
/// alike.
enum RoundTripBenchmark {
    struct Result {
        var raw = LatencySample()
        /// The raw echo on subjects of the app's lengths (see ``ThroughputBenchmark/raw(_:clients:window:seconds:responders:vaultShaped:onEventLoop:)``).
        var shaped = LatencySample()
        var worker = LatencySample()
        /// ``BareSealedApp``: the worker path sealed.
        var workerSealed = LatencySample()
        var sdkPlaintext = LatencySample()
        var sdkSealed = LatencySample()
        /// Handshakes over NATS, one after the other (the vault's device lookup included).
        var handshakes = LatencySample()
        /// Handshakes the sealed paths ran during the measured rounds (a session admits 1,000 requests).
        var renewals = (bare: 0, sdk: 0)
    }

    static func run(
        _ connections: BenchConnections, sdk: SDKApp, sealedDevice: EnrolledDevice, requests: Int, warmup: Int,
        rounds: Int, handshakes: Int
    ) async throws -> Result {
        let responder = try await connections.raw(name: "responder")
        let root = BenchConnections.vaultShapedRoot
        let echoes = [
            try responder.subscribe(to: "bench.raw.echo"), try responder.subscribe(to: "\(root).*.forVault.>"),
        ]
        try await responder.flush()
        // On the responder connection's event loop, where the worker's lanes run by default
        // (`VaultWorker.LaneExecutor`): the peer takes no thread hop the worker does not take either.
        let echo = Task(executorPreference: responder.taskExecutor) {
            await withDiscardingTaskGroup { group in
                for requests in echoes {
                    group.addTask {
                        for await request in requests {
                            guard let reply = request.replyTo else { continue }
                            try? responder.publish(request.payload, to: reply)
                        }
                    }
                }
            }
        }
        let client = try await connections.raw(name: "client")
        let space = "\(root).\(UUID().uuidString.lowercased())"
        let shapedClient = try await connections.raw(name: "shaped", inboxPrefix: "\(space).forApp.inbox")
        // The bare paths, plaintext and sealed, on one connection of an enrolled member (every handler call of a
        // member is written to its vault access log; a GUID that is no member's would fail those writes).
        let bare = try await BareSealedApp(sealedDevice, connections: connections)
        let (app, namespace) = (bare.client, bare.namespace)

        var result = Result()
        _ = try await raw(client, count: warmup)
        _ = try await raw(shapedClient, to: "\(space).forVault.execute", count: warmup)
        _ = try await throughWorker(app, namespace, count: warmup, first: 0)
        _ = try await sealed(bare, count: warmup, first: 0)
        _ = try await throughSDK(sdk.plaintext, count: warmup, first: 0)
        _ = try await throughSDK(sdk.sealed, count: warmup, first: 0)
        let clock = ContinuousClock()
        for _ in 0..<handshakes {
            let started = clock.now
            try await bare.handshake()
            result.handshakes.record(clock.now - started)
        }
        let before = (bare: bare.handshakes, sdk: sdk.handshakes)
        let perRound = max(requests / max(rounds, 1), 1)
        for round in 0..<max(rounds, 1) {
            let first = warmup + round * perRound
            result.raw.merge(try await raw(client, count: perRound))
            result.shaped.merge(try await raw(shapedClient, to: "\(space).forVault.execute", count: perRound))
            result.worker.merge(try await throughWorker(app, namespace, count: perRound, first: first))
            result.workerSealed.merge(try await sealed(bare, count: perRound, first: first))
            result.sdkPlaintext.merge(try await throughSDK(sdk.plaintext, count: perRound, first: first))
            result.sdkSealed.merge(try await throughSDK(sdk.sealed, count: perRound, first: first))
        }
        result.renewals = (bare.handshakes - before.bare, sdk.handshakes - before.sdk)
        for subscription in echoes { subscription.unsubscribe() }
        await echo.value
        await client.close()
        await shapedClient.close()
        await bare.close()
        await responder.close()
        return result
    }

    /// `echo` through `client` (the SDK app's sealed or plaintext `OwnerSpaceClient`), with the worker path's payload.
    private static func throughSDK(_ client: OwnerSpaceClient, count: Int, first: Int) async throws -> LatencySample {
        try await timedEchoes(count: count, first: first) { try await SDKApp.echo(client, $0) }
    }

    /// `echo` sealed by `app` itself, with the worker path's payload.
    private static func sealed(_ app: BareSealedApp, count: Int, first: Int) async throws -> LatencySample {
        try await timedEchoes(count: count, first: first) { try await app.echo($0) }
    }

    /// `count` sequential echoes of `{"n": index}` through `echo`, each timed.
    private static func timedEchoes(
        count: Int, first: Int, _ echo: (JSONValue) async throws -> Void
    ) async throws -> LatencySample {
        var sample = LatencySample()
        let clock = ContinuousClock()
        for index in first..<(first + count) {
            let payload: JSONValue = .object([("n", .integer(Int64(index)))])
            let started = clock.now
            try await echo(payload)
            sample.record(clock.now - started)
        }
        return sample
    }

    private static func throughWorker(_ app: NATSClient, _ namespace: VaultNamespace, count: Int, first: Int)
        async throws -> LatencySample
    {
        var sample = LatencySample()
        let clock = ContinuousClock()
        for index in first..<(first + count) {
            let message = VaultMessage.executeHandler(
                id: "r\(index)", handlerID: "echo", payload: .object([("n", .integer(Int64(index)))]),
                timestamp: Int64(Date().timeIntervalSince1970 * 1000))
            let started = clock.now
            let reply = try await app.request(ByteBuffer(bytes: message.encoded()), to: namespace.forVault(.execute))
            let elapsed = clock.now - started
            let response = try VaultResponse.decode(reply.payload.readableBytesView)
            guard response.requestID == "r\(index)", response.isSuccess else {
                throw BenchFailure("unexpected answer to r\(index): \(response)")
            }
            sample.record(elapsed)
        }
        return sample
    }

    private static func raw(_ client: NATSClient, to subject: String = "bench.raw.echo", count: Int) async throws
        -> LatencySample
    {
        var sample = LatencySample()
        let clock = ContinuousClock()
        let payload = VaultMessage.executeHandler(
            id: "raw", handlerID: "echo", payload: .object([("n", .integer(1))]), timestamp: 0
        ).encoded()
        for _ in 0..<count {
            let started = clock.now
            _ = try await client.request(ByteBuffer(bytes: payload), to: subject)
            sample.record(clock.now - started)
        }
        return sample
    }
}
