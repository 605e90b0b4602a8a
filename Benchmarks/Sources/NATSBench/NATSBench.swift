// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// Same workloads as Peers/bench.c and Peers/bench.go, same output format:
//   pub <size> <msgs> <seconds> <msgs/s>
//   pub-default <size> <msgs> <seconds> <msgs/s>   (the client's default configuration, publishing with `send`)
//   pub-executor <size> <msgs> <seconds> <msgs/s>  (the same with the publisher on the client's taskExecutor)
//   pubsub <size> <msgs> <seconds> <msgs/s>
//   pubsub-executor <size> <msgs> <seconds> <msgs/s>  (publisher and receiver on their clients' taskExecutors)
//   reqrep <count> <p50 µs> <p99 µs>        (request loop and responder on their clients' taskExecutor)
//   reqrep-pool <count> <p50 µs> <p99 µs>   (the same on Swift's global executor)
// Usage: NATSBench <url> <msgs> <reqrep count> [all|pub|pub128|pub-default|pub-executor|pubsub|pubsub-executor|reqrep|reqrep-executor]   (NATSBench decode <frames>)

import Foundation
import NATSClient
import NIOCore
import NIOPosix

@main
struct NATSBench {
    /// The workloads run on the global concurrent executor, as code in a Swift service or an app's background
    /// task calls the client, not on the main actor that an async `main` is isolated to (the peers, too, run
    /// their workloads on ordinary threads).
    static func main() async throws {
        if ProcessInfo.processInfo.environment["NATSBENCH_NIO_EXECUTOR"] == "1" {
            _ = NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
        }
        try await Task.detached { try await run() }.value
    }

    static func run() async throws {
        let arguments = CommandLine.arguments
        let url = arguments.count > 1 ? arguments[1] : "nats://127.0.0.1:4222"
        let count = arguments.count > 2 ? Int(arguments[2]) ?? 1_000_000 : 1_000_000
        let requests = arguments.count > 3 ? Int(arguments[3]) ?? 10_000 : 10_000
        let only = arguments.count > 4 ? arguments[4] : "all"
        if url == "decode" {
            // Decoder alone: parse `count` MSG frames of 128 bytes from one buffer.
            var input = ByteBuffer()
            let payload = String(repeating: "x", count: 128)
            for _ in 0..<count { input.writeString("MSG bench.pubsub 1 128\r\n\(payload)\r\n") }
            let start = ContinuousClock.now
            var decoded = 0
            while let _ = try NATSProtocolDecoder.parse(&input) { decoded += 1 }
            report("decode", 128, decoded, ContinuousClock.now - start)
            return
        }
        let configuration = NATSClient.Configuration(
            servers: [url],
            maxPendingOutboundBytes: 1 << 30,
            subscriptionPendingLimit: 1 << 24
        )

        // `pub128`: the 128-byte row alone (scripts/bench-nats's alternating rounds).
        for size in [16, 128, 1024] where only == "all" || only == "pub" || (only == "pub128" && size == 128) {
            let client = try NATSClient(configuration: configuration)
            try await client.connect()
            let payload = ByteBuffer(repeating: UInt8(ascii: "x"), count: size)
            let start = ContinuousClock.now
            for _ in 0..<count { try client.publish(payload, to: "bench.pub") }
            try await client.flush(timeout: .seconds(120))
            report("pub", size, count, ContinuousClock.now - start)
            await client.close()
        }

        // The default configuration (64 MiB outbound limit): `send` waits for room where `publish` would throw.
        // 128 bytes for the rounds (`pub-default`); every size in the table.
        for size in [16, 128, 1024]
        where ["all", "pub"].contains(only) || (only == "pub-default" && size == 128) {
            let client = try NATSClient(configuration: NATSClient.Configuration(servers: [url]))
            try await client.connect()
            let payload = ByteBuffer(repeating: UInt8(ascii: "x"), count: size)
            let start = ContinuousClock.now
            for _ in 0..<count { try await client.send(payload, to: "bench.pub") }
            try await client.flush(timeout: .seconds(120))
            report("pub-default", size, count, ContinuousClock.now - start)
            await client.close()
        }

        // The same on the client's taskExecutor: the publisher runs on the connection's event loop and writes each
        // chunk in place as it fills.
        if ["all", "pub", "pub-executor"].contains(only) {
            let client = try NATSClient(configuration: NATSClient.Configuration(servers: [url]))
            try await client.connect()
            let payload = ByteBuffer(repeating: UInt8(ascii: "x"), count: 128)
            let start = ContinuousClock.now
            try await Task(executorPreference: client.taskExecutor) {
                for _ in 0..<count { try await client.send(payload, to: "bench.pub") }
                try await client.flush(timeout: .seconds(120))
            }.value
            report("pub-executor", 128, count, ContinuousClock.now - start)
            await client.close()
        }

        if ["all", "pubsub"].contains(only) {
            try await publishToSubscriber(url, configuration, count: count, name: "pubsub", onEventLoops: false)
        }
        if ["all", "pubsub-executor"].contains(only) {
            try await publishToSubscriber(url, configuration, count: count, name: "pubsub-executor", onEventLoops: true)
        }

        // The request loop and the responder on their clients' event loops (NATSClient.taskExecutor), as an
        // application does for latency; then the same on Swift's global executor. `reqrep-executor` runs only the
        // first (scripts/bench-nats's alternating rounds against nats.go).
        if ["all", "reqrep", "reqrep-executor"].contains(only) {
            try await requestReply(url, configuration, requests: requests, name: "reqrep", onEventLoops: true)
        }
        if ["all", "reqrep"].contains(only) {
            try await requestReply(url, configuration, requests: requests, name: "reqrep-pool", onEventLoops: false)
        }
    }

    /// One connection publishes `count` messages of 128 bytes, another receives them: prints the subscriber's rate
    /// from its first to its last message. With `onEventLoops`, the publisher sends on its client's taskExecutor
    /// (each chunk written in place as it fills) and the receiving loop runs on the subscriber's.
    static func publishToSubscriber(
        _ url: String, _ configuration: NATSClient.Configuration, count: Int, name: String, onEventLoops: Bool
    ) async throws {
        let size = 128
        let subscriber = try NATSClient(configuration: configuration)
        try await subscriber.connect()
        let publisher = try NATSClient(configuration: configuration)
        try await publisher.connect()
        let subscription = try subscriber.subscribe(to: "bench.pubsub")
        try await subscriber.flush()
        let payload = ByteBuffer(repeating: UInt8(ascii: "x"), count: size)
        let receiver = Task(executorPreference: onEventLoops ? subscriber.taskExecutor : nil) {
            var received = 0
            var first: ContinuousClock.Instant?
            for await _ in subscription {
                if first == nil { first = ContinuousClock.now }
                received += 1
                if received == count { break }
            }
            return (first ?? ContinuousClock.now, ContinuousClock.now)
        }
        if onEventLoops {
            try await Task(executorPreference: publisher.taskExecutor) {
                for _ in 0..<count { try await publisher.send(payload, to: "bench.pubsub") }
                try await publisher.flush(timeout: .seconds(120))
            }.value
        } else {
            for _ in 0..<count { try publisher.publish(payload, to: "bench.pubsub") }
            try await publisher.flush(timeout: .seconds(120))
        }
        let (first, last) = await receiver.value
        report(name, size, count, last - first)
        await publisher.close()
        await subscriber.close()
    }

    /// Sequential requests against an echo responder: prints `name count p50 p99` (µs).
    static func requestReply(
        _ url: String, _ configuration: NATSClient.Configuration, requests: Int, name: String, onEventLoops: Bool
    ) async throws {
        let responder = try NATSClient(configuration: configuration)
        try await responder.connect()
        let service = try responder.subscribe(to: "bench.req")
        let answer: @Sendable () async -> Void = {
            for await request in service {
                if let reply = request.replyTo { try? responder.publish(request.payload, to: reply) }
            }
        }
        let serviceTask = Task(executorPreference: onEventLoops ? responder.taskExecutor : nil) { await answer() }
        try await responder.flush()
        let client = try NATSClient(configuration: configuration)
        try await client.connect()
        let measure: @Sendable () async throws -> [Double] = {
            let payload = ByteBuffer(repeating: UInt8(ascii: "x"), count: 128)
            for _ in 0..<100 { _ = try await client.request(payload, to: "bench.req") }
            var latencies: [Double] = []
            latencies.reserveCapacity(requests)
            for _ in 0..<requests {
                let start = ContinuousClock.now
                _ = try await client.request(payload, to: "bench.req")
                latencies.append(microseconds(ContinuousClock.now - start))
            }
            return latencies
        }
        var latencies = try await Task(executorPreference: onEventLoops ? client.taskExecutor : nil) {
            try await measure()
        }.value
        latencies.sort()
        let p50 = latencies[latencies.count / 2]
        let p99 = latencies[min(latencies.count - 1, latencies.count * 99 / 100)]
        print("\(name) \(requests) \(format(p50)) \(format(p99))")
        serviceTask.cancel()
        await client.close()
        await responder.close()
    }

    static func microseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1e6 + Double(attoseconds) / 1e12
    }

    static func format(_ value: Double) -> String {
        String(Double(Int(value * 10)) / 10)
    }

    static func report(_ name: String, _ size: Int, _ count: Int, _ duration: Duration) {
        let seconds = microseconds(duration) / 1e6
        print("\(name) \(size) \(count) \(format(seconds * 1000) ) \(Int(Double(count) / seconds))")
    }
}
