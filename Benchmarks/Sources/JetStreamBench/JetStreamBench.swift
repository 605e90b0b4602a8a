// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// NATSClient's JetStream side of scripts/bench-jetstream: the workloads of Peers/bench-js.c and Peers/bench-js.go,
// the same output format:
//   <workload> <msgs> <ms> <msgs/s>
// Workloads (128-byte payloads, a file-storage stream JSBENCH on jsbench.> created fresh for each):
//   js-pub-sync     JetStreamContext.publish, one at a time, each waiting for its PubAck
//   js-pub-async    JetStreamContext.publishAsync, keeping <window> PubAcks outstanding (the oldest awaited first)
//   js-fetch-<B>    <msgs> stored first (untimed); a durable pull consumer with explicit acks; fetch of batches of
//                   B, ack() (+ACK, not waiting) of each, until all are consumed
//   js-fetch-<B>-floor  the same workload by FetchFloor.swift: the least work any SwiftNIO client must do (one
//                   channel handler, no NATSClient on the timed path)
//   js-pub-sync-floor   js-pub-sync by PublishFloor.swift: a task on the global executor and one channel handler,
//                   the two thread wake-ups per message any NIO client awaited off its event loop pays
// Each runs on Swift's global executor; with `-executor` appended (js-pub-sync-executor, …) the timed loop runs on
// the client's taskExecutor (the connection's event loop) instead.
// Usage: JetStreamBench <url> <workload> <msgs> [window|batch]

import BenchSupport
import NATSClient
import NIOCore

@main
struct JetStreamBench {
    static let stream = "JSBENCH"
    static let subject = "jsbench.msg"
    static let consumer = "BENCH"

    /// The workloads run on the global concurrent executor (or the client's task executor), not on the main actor
    /// an async `main` is isolated to.
    static func main() async throws {
        try await Task.detached { try await run() }.value
    }

    static func run() async throws {
        let arguments = CommandLine.arguments
        guard arguments.count >= 4, let count = Int(arguments[3]), count > 0 else {
            throw BenchFailure("usage: JetStreamBench <url> <workload> <msgs> [window|batch]")
        }
        let url = arguments[1]
        var workload = arguments[2]
        let parameter = arguments.count > 4 ? Int(arguments[4]) : nil
        let onExecutor = workload.hasSuffix("-executor")
        if onExecutor { workload.removeLast("-executor".count) }
        let floor = workload.hasSuffix("-floor")
        if floor { workload.removeLast("-floor".count) }

        let client = try NATSClient(configuration: NATSClient.Configuration(servers: [url]))
        try await client.connect()
        let jetStream = client.jetStream(timeout: .seconds(30))
        try? await jetStream.deleteStream(stream)
        try await jetStream.createStream(StreamConfiguration(name: stream, subjects: ["jsbench.>"], storage: .file))
        let payload = ByteBuffer(repeating: UInt8(ascii: "x"), count: 128)

        let timed: @Sendable () async throws -> Void
        switch workload {
        case "js-pub-sync" where floor:
            let (host, port) = try hostAndPort(url)
            timed = { try await publishFloor(host: host, port: port, subject: subject, payload: payload, count: count) }
        case "js-pub-sync":
            timed = {
                for _ in 0..<count { try await jetStream.publish(payload, to: subject) }
            }
        case "js-pub-async":
            let window = parameter ?? 256
            timed = { try await publishWindowed(jetStream, payload, count: count, window: window) }
        case _ where workload.hasPrefix("js-fetch"):
            let batch = parameter ?? 100
            try await publishWindowed(jetStream, payload, count: count, window: 256)
            try await jetStream.createConsumer(ConsumerConfiguration(durableName: consumer), on: stream)
            if floor {
                let (host, port) = try hostAndPort(url)
                timed = {
                    try await fetchFloor(
                        host: host, port: port, stream: stream, consumer: consumer, count: count, batch: batch)
                }
                break
            }
            timed = {
                var received = 0
                while received < count {
                    let messages = try await jetStream.fetch(
                        batch: batch, from: consumer, on: stream, expires: .seconds(5))
                    for message in messages { try message.ack() }
                    received += messages.count
                }
            }
        default:
            throw BenchFailure("unknown workload \(workload)")
        }

        let start = ContinuousClock.now
        if onExecutor {
            try await Task(executorPreference: client.taskExecutor) { try await timed() }.value
        } else {
            try await timed()
        }
        let elapsed = (ContinuousClock.now - start).seconds
        let name = onExecutor ? "\(workload)-executor" : floor ? "\(workload)-floor" : workload
        emit("\(name) \(count) \(Double(Int(elapsed * 10_000)) / 10) \(Int(Double(count) / elapsed))")

        try await jetStream.deleteStream(stream)
        await client.close()
    }

    /// The host and port of a `nats://host:port` URL.
    static func hostAndPort(_ url: String) throws -> (String, Int) {
        let address = url.dropFirst("nats://".count).split(separator: ":")
        guard address.count == 2, let port = Int(address[1]) else { throw BenchFailure("url must be nats://host:port") }
        return (String(address[0]), port)
    }

    /// Publishes `count` messages with `publishAsync`, keeping at most `window` acknowledgements outstanding (the
    /// oldest is awaited before the next publish), as nats.go's `PublishAsync` with `MaxPending` and nats.c's
    /// `js_PublishAsync` with `MaxPending` do.
    static func publishWindowed(
        _ jetStream: JetStreamContext, _ payload: ByteBuffer, count: Int, window: Int
    ) async throws {
        var outstanding: [PubAckFuture] = []
        outstanding.reserveCapacity(window)
        var oldest = 0
        for _ in 0..<count {
            if outstanding.count == window {
                _ = try await outstanding[oldest].value()
                outstanding[oldest] = try await jetStream.publishAsync(payload, to: subject)
                oldest = (oldest + 1) % window
            } else {
                outstanding.append(try await jetStream.publishAsync(payload, to: subject))
            }
        }
        for index in 0..<outstanding.count { _ = try await outstanding[(oldest + index) % outstanding.count].value() }
    }
}
