import Foundation
import NATSClient
import NIOCore
import VettIDCrypto
import VettIDMessaging

/// Several apps, each keeping a window of requests in flight, for a fixed time: answered requests per second.
enum ThroughputBenchmark {
    struct Result {
        let answered: Int
        let elapsed: Duration
        var perSecond: Double { Double(answered) / max(elapsed.microseconds / 1e6, 1e-9) }
    }

    static func run(_ connections: BenchConnections, clients: Int, window: Int, seconds: Double) async throws -> Result {
        var apps: [(NATSClient, VaultNamespace)] = []
        for _ in 0..<clients { apps.append(try await connections.app()) }
        let clock = ContinuousClock()
        let started = clock.now
        let deadline = started + .milliseconds(Int64(seconds * 1000))
        let answered = try await withThrowingTaskGroup(of: Int.self) { group in
            for (app, namespace) in apps {
                for lane in 0..<window {
                    group.addTask {
                        var count = 0
                        while clock.now < deadline {
                            let message = VaultMessage.executeHandler(
                                id: "l\(lane)-\(count)", handlerID: "echo", payload: .integer(Int64(count)), timestamp: 0)
                            let reply = try await app.request(
                                ByteBuffer(bytes: message.encoded()), to: namespace.forVault(.execute))
                            guard try VaultResponse.decode(reply.payload.readableBytesView).isSuccess else {
                                throw BenchFailure("a request failed")
                            }
                            count += 1
                        }
                        return count
                    }
                }
            }
            return try await group.reduce(0, +)
        }
        let elapsed = clock.now - started
        for (app, _) in apps { await app.close() }
        return Result(answered: answered, elapsed: elapsed)
    }
}
