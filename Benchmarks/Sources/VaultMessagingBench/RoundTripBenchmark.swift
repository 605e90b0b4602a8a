import BenchSupport
import Foundation
import NATSClient
import NIOCore
import VettIDCrypto
import VettIDMessaging

/// One client, one request at a time: app → worker (`execute echo`, parsed, dispatched, answered on the app's
/// inbox) against the same exchange with a raw responder that only echoes bytes.
enum RoundTripBenchmark {
    static func throughWorker(_ connections: BenchConnections, requests: Int, warmup: Int) async throws -> LatencySample
    {
        let (app, namespace) = try await connections.app()
        defer { Task { await app.close() } }
        var sample = LatencySample()
        let clock = ContinuousClock()
        for index in 0..<(warmup + requests) {
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
            if index >= warmup { sample.record(elapsed) }
        }
        return sample
    }

    static func raw(_ connections: BenchConnections, requests: Int, warmup: Int) async throws -> LatencySample {
        let responder = try await connections.raw(name: "responder")
        let requests_ = try responder.subscribe(to: "bench.raw.echo")
        try await responder.flush()
        let echo = Task {
            for await request in requests_ {
                guard let reply = request.replyTo else { continue }
                try? responder.publish(request.payload, to: reply)
            }
        }
        let client = try await connections.raw(name: "client")
        var sample = LatencySample()
        let clock = ContinuousClock()
        let payload = VaultMessage.executeHandler(
            id: "raw", handlerID: "echo", payload: .object([("n", .integer(1))]), timestamp: 0
        ).encoded()
        for index in 0..<(warmup + requests) {
            let started = clock.now
            _ = try await client.request(ByteBuffer(bytes: payload), to: "bench.raw.echo")
            if index >= warmup { sample.record(clock.now - started) }
        }
        echo.cancel()
        await client.close()
        await responder.close()
        return sample
    }
}
