// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import BenchSupport
import Foundation
import Hummingbird
import Logging
import NIOCore

/// The upstream API both measurements call: a Hummingbird app on loopback answering `GET /api/**` with a small
/// JSON echo of the request line (the same shape as the demo's upstream).
struct BenchUpstream: Sendable {
    /// `http://127.0.0.1:<port>`.
    let baseURL: String
    private let task: Task<Void, any Error>

    static func start() async throws -> BenchUpstream {
        let router = Router()
        router.get("/api/**") { request, _ -> Response in
            let text =
                #"{"upstream":"bench","method":"\#(request.method.rawValue)","uri":"\#(request.uri.description)"}"#
            return Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: text)))
        }
        var logger = Logger(label: "gatebench-upstream")
        // Stopping by cancellation makes Hummingbird log errors about the closed channels; nothing else is logged.
        logger.logLevel = .critical
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let app = Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                continuation.yield(channel.localAddress?.port ?? 0)
                continuation.finish()
            },
            logger: logger
        )
        let task = Task { try await app.runService(gracefulShutdownSignals: []) }
        guard let port = await ports.first(where: { _ in true }), port > 0 else {
            task.cancel()
            throw BenchFailure("the upstream did not start")
        }
        return BenchUpstream(baseURL: "http://127.0.0.1:\(port)", task: task)
    }

    func stop() async {
        task.cancel()
        _ = try? await task.value
    }
}
