import AsyncHTTPClient
import NIOCore

/// The HTTP client the proxy forwards with: no redirects followed (they go back to the app), no
/// decompression (bytes pass through), the configured connect and read timeouts.
///
/// Owned by the ``GateProxy``; shut down without blocking when the last reference goes away.
final class GateHTTPClient: Sendable {
    let client: HTTPClient

    init(configuration: GateConfiguration) {
        client = HTTPClient(
            eventLoopGroup: HTTPClient.defaultEventLoopGroup,
            configuration: .init(
                redirectConfiguration: .disallow,
                timeout: .init(
                    connect: Self.timeAmount(configuration.upstreamConnectTimeout),
                    read: Self.timeAmount(configuration.upstreamReadTimeout)
                ),
                connectionPool: .init(
                    idleTimeout: .seconds(60),
                    concurrentHTTP1ConnectionsPerHostSoftLimit: configuration.upstreamMaxConnections),
                decompression: .disabled
            )
        )
    }

    static func timeAmount(_ duration: Duration) -> TimeAmount {
        .milliseconds(
            Int64(duration.components.seconds) * 1_000 + duration.components.attoseconds / 1_000_000_000_000_000)
    }

    deinit {
        let client = self.client
        Task { try? await client.shutdown() }
    }
}
