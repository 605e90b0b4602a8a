// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import NIOCore

/// The connection pools of the configured upstreams, by name; created with the ``GateProxy`` and shut down
/// (idle connections closed) when it goes away. An upstream without a pool (a base URL the configuration loader
/// would have refused, set in code) answers 502.
final class UpstreamPools: Sendable {
    private let pools: [String: UpstreamPool]

    init(configuration: GateConfiguration) {
        let settings = UpstreamPool.Settings(
            connectTimeout: Self.timeAmount(configuration.upstreamConnectTimeout),
            readTimeout: Self.timeAmount(configuration.upstreamReadTimeout),
            maxConnections: configuration.upstreamMaxConnections)
        var pools: [String: UpstreamPool] = [:]
        for (name, upstream) in configuration.upstreams {
            if let endpoint = UpstreamEndpoint(baseURL: upstream.baseURL) {
                pools[name] = try? UpstreamPool(endpoint: endpoint, settings: settings)
            }
        }
        self.pools = pools
    }

    subscript(name: String) -> UpstreamPool? { pools[name] }

    deinit {
        for pool in pools.values { pool.shutdown() }
    }

    static func timeAmount(_ duration: Duration) -> TimeAmount {
        .nanoseconds(duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
    }
}
