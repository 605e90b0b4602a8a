import NIOCore

/// The connection pools of the configured upstreams, by name; created with the ``GateProxy`` and shut down
/// (idle connections closed) when it goes away.
final class UpstreamPools: Sendable {
    private let pools: [String: UpstreamPool]
    /// Upstreams whose base URL is not `http(s)://host[:port][/path]`: requests to them answer 502.
    let unusable: Set<String>

    init(configuration: GateConfiguration) {
        let settings = UpstreamPool.Settings(
            connectTimeout: Self.timeAmount(configuration.upstreamConnectTimeout),
            readTimeout: Self.timeAmount(configuration.upstreamReadTimeout),
            maxConnections: configuration.upstreamMaxConnections)
        var pools: [String: UpstreamPool] = [:]
        var unusable: Set<String> = []
        for (name, upstream) in configuration.upstreams {
            if let endpoint = UpstreamEndpoint(baseURL: upstream.baseURL),
                let pool = try? UpstreamPool(endpoint: endpoint, settings: settings)
            {
                pools[name] = pool
            } else {
                unusable.insert(name)
            }
        }
        self.pools = pools
        self.unusable = unusable
    }

    subscript(name: String) -> UpstreamPool? { pools[name] }

    deinit {
        for pool in pools.values { pool.shutdown() }
    }

    static func timeAmount(_ duration: Duration) -> TimeAmount {
        .nanoseconds(duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
    }
}
