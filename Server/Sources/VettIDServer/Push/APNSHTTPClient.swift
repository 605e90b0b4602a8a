// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import NIOSSL
import VettIDCrypto

/// The APNs HTTP/2 client: one AsyncHTTPClient (one connection pool, so one multiplexed HTTP/2 connection) per
/// environment, over TLS. An answer over anything but HTTP/2 is refused as APNs never gives one.
final class APNSHTTPClient: APNSTransport {
    private let clients: [APNSEnvironment: HTTPClient]
    private let baseURLs: [APNSEnvironment: String]
    private let timeout: TimeAmount
    private let logger: Logger

    /// Clients for the endpoints of `configuration`, trusting its `caFile` (or the system roots).
    init(configuration: APNSConfiguration, logger: Logger) throws {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.minimumTLSVersion = .tlsv12
        if let caFile = configuration.caFile {
            do {
                tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(caFile))
            } catch {
                throw APNSError(.misconfigured, "cannot read apns_ca_file \(caFile)")
            }
        }
        var pool = HTTPClient.Configuration.ConnectionPool(idleTimeout: .seconds(600))
        // A connection that cannot be made fails the request at once: the provider retries with its own back-off.
        pool.retryConnectionEstablishment = false
        // Until ALPN says h2, the pool counts as HTTP/1 and would open a connection per waiting request: one only,
        // then every request is a stream on it.
        pool.concurrentHTTP1ConnectionsPerHostSoftLimit = 1
        var clientConfiguration = HTTPClient.Configuration(
            tlsConfiguration: tls, redirectConfiguration: .disallow, timeout: .init(connect: .seconds(10)),
            connectionPool: pool)
        // ALPN offers h2 first; APNs and the test server select it. The answer's version is checked below.
        clientConfiguration.httpVersion = .automatic
        var clients: [APNSEnvironment: HTTPClient] = [:]
        var baseURLs: [APNSEnvironment: String] = [:]
        for environment in APNSEnvironment.allCases {
            let base = configuration.baseURL(for: environment)
            guard let url = URL(string: base), url.scheme == "https", url.host != nil else {
                throw APNSError(.misconfigured, "the \(environment.rawValue) APNs endpoint must be an https:// URL")
            }
            baseURLs[environment] = base
            clients[environment] = HTTPClient(
                eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: clientConfiguration,
                backgroundActivityLogger: Self.quiet(logger))
        }
        self.clients = clients
        self.baseURLs = baseURLs
        let (seconds, attoseconds) = configuration.requestTimeout.components
        self.timeout = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        // AsyncHTTPClient's debug and trace lines concern the request, whose path is the device token: not logged.
        self.logger = Self.quiet(logger)
    }

    private static func quiet(_ logger: Logger) -> Logger {
        var quiet = logger
        quiet.logLevel = max(logger.logLevel, .info)
        return quiet
    }

    func send(_ request: APNSWireRequest, to environment: APNSEnvironment) async throws -> APNSWireResponse {
        guard let client = clients[environment], let base = baseURLs[environment] else {
            throw APNSError(.misconfigured, "no client for \(environment.rawValue)")
        }
        var http = HTTPClientRequest(url: base + "/3/device/" + request.deviceToken)
        http.method = .POST
        http.headers.add(name: "authorization", value: "bearer " + request.providerToken)
        http.headers.add(name: "apns-topic", value: request.topic)
        http.headers.add(name: "apns-push-type", value: request.pushType)
        http.headers.add(name: "apns-priority", value: String(request.priority))
        http.headers.add(name: "apns-expiration", value: String(request.expiration))
        http.headers.add(name: "apns-collapse-id", value: request.collapseID)
        http.headers.add(name: "apns-id", value: request.pushID.uuidString)
        http.headers.add(name: "content-type", value: "application/json")
        http.body = .bytes(ByteBuffer(bytes: request.payload))
        let response: HTTPClientResponse
        do {
            response = try await client.execute(http, timeout: timeout, logger: logger)
        } catch let error as HTTPClientError where error == .deadlineExceeded {
            throw APNSError(.timeout, "no answer from the \(environment.rawValue) APNs endpoint in time")
        }
        guard response.version == .http2 else {
            throw APNSError(.notHTTP2, "the \(environment.rawValue) APNs endpoint answered over \(response.version)")
        }
        let body = try await response.body.collect(upTo: 16 * 1024)
        let json = response.status == .ok ? nil : JSONValue.parse(body.readableBytesView)
        return APNSWireResponse(
            status: Int(response.status.code), apnsID: response.headers.first(name: "apns-id"),
            reason: json?["reason"]?.stringValue, timestamp: json?["timestamp"]?.int64Value)
    }

    func shutdown() async throws {
        for client in clients.values { try await client.shutdown() }
    }
}
