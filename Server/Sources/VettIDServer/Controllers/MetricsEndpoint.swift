// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import VettIDCore

/// `GET /metrics`: the Prometheus text exposition of ``ServerMetrics``, for a scraper that presents
/// `Authorization: Bearer <metrics_token>`. Registered only when `metrics_token` is configured, so metrics are
/// never public by default (docs/operations.md, "Metrics").
public struct MetricsEndpoint: Sendable {
    /// The route.
    public static let path = "/metrics"
    let metrics: ServerMetrics
    let tokenHash: SHA256.Digest

    /// An endpoint that serves `metrics` to holders of `token`.
    public init(metrics: ServerMetrics, token: String) {
        self.metrics = metrics
        self.tokenHash = SHA256.hash(data: Array(token.utf8))
    }

    /// Adds the route to `routes`.
    func register(on routes: some RouterMethods<AppRequestContext>) {
        routes.get(RouterPath(Self.path)) { request, _ in try respond(to: request) }
    }

    func respond(to request: Request) throws -> Response {
        guard authorized(request.headers[.authorization]) else {
            throw APIFailure(
                .unauthorized, .invalidToken, "the metrics token is missing or wrong",
                headers: [.wwwAuthenticate: #"Bearer realm="metrics""#])
        }
        let body = metrics.exposition()
        return Response(
            status: .ok,
            headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// Compares hashes, so the comparison takes the same time whatever the presented token shares with the real one.
    func authorized(_ header: String?) -> Bool {
        guard let header, header.utf8.count <= 512, header.hasPrefix("Bearer ") else { return false }
        return SHA256.hash(data: Array(header.dropFirst(7).utf8)) == tokenHash
    }
}
