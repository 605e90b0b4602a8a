// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import NIOCore
import NIOHTTP1
import NIOSSL
import Testing
import VettIDCore
import VettIDTestSupport

@testable import VettIDServer

/// The Gate's upstream client against scripted servers on loopback: keep-alive reuse, the one retry a request
/// without a body gets on a connection the upstream closed, streaming of large answers, and the typed failures.
@Suite struct UpstreamClientTests {
    static func pool(port: Int, readTimeout: TimeAmount = .seconds(5), maxConnections: Int = 4) throws -> UpstreamPool {
        try UpstreamPool(
            endpoint: try #require(UpstreamEndpoint(baseURL: "http://127.0.0.1:\(port)/base")),
            settings: .init(connectTimeout: .seconds(2), readTimeout: readTimeout, maxConnections: maxConnections))
    }

    /// The read timeout of the tests whose upstream closes the connection: the close must be what they see, and on
    /// a machine loaded by the rest of the suite the default 5 s once ran out first (a `readTimeout` instead of
    /// `connectionClosed`). A close arrives in milliseconds, so a working client never waits for this.
    static let closingUpstreamReadTimeout: TimeAmount = .seconds(60)

    static func get(_ path: String) -> HTTPRequestHead {
        HTTPRequestHead(version: .http1_1, method: .GET, uri: path, headers: ["host": "127.0.0.1"])
    }

    static func text(_ response: UpstreamResponse) async throws -> String {
        switch response.body {
        case .complete(let buffer):
            return String(buffer: buffer)
        case .streaming(let chunks):
            var all = ByteBuffer()
            for try await var chunk in chunks { all.writeBuffer(&chunk) }
            return String(buffer: all)
        }
    }

    @Test func keptAliveConnectionsAreReused() async throws {
        let upstream = try await ScriptedUpstream { index in ScriptedUpstream.ok("answer \(index)") }
        let pool = try Self.pool(port: upstream.port)
        for index in 0..<5 {
            let response = try await GateProxy.exchange(Self.get("/base/x"), upload: nil, pool: pool)
            #expect(response.head.status == .ok)
            #expect(try await Self.text(response) == "answer \(index)")
        }
        #expect(upstream.connections == 1)
        #expect(upstream.requests == 5)
        await upstream.stop()
    }

    @Test func aConnectionClosedBetweenRequestsIsReplacedOnce() async throws {
        // Every connection answers its first request and closes on the second without a byte of answer: the
        // request is sent again on a new connection, once.
        let upstream = try await ScriptedUpstream { index in index == 0 ? ScriptedUpstream.ok("first") : .close }
        let pool = try Self.pool(port: upstream.port, readTimeout: Self.closingUpstreamReadTimeout)
        for _ in 0..<3 {
            let response = try await GateProxy.exchange(Self.get("/base/x"), upload: nil, pool: pool)
            #expect(try await Self.text(response) == "first")
        }
        // Request 1 opens connection 1; requests 2 and 3 each meet a connection that closes, then open a new one.
        #expect(upstream.connections == 3)
        #expect(upstream.requests == 5)
        await upstream.stop()
    }

    @Test func aRequestThatIsNotIdempotentIsNeverResent() async throws {
        // The same closing upstream: a POST without a body (Content-Length: 0) on the reused connection fails
        // instead of being sent a second time, since the upstream may have acted on it before closing.
        let upstream = try await ScriptedUpstream { index in index == 0 ? ScriptedUpstream.ok("first") : .close }
        let pool = try Self.pool(port: upstream.port, readTimeout: Self.closingUpstreamReadTimeout)
        _ = try await GateProxy.exchange(Self.get("/base/x"), upload: nil, pool: pool)
        var post = Self.get("/base/order")
        post.method = .POST
        post.headers.add(name: "content-length", value: "0")
        await #expect(throws: UpstreamFailure(.connectionClosed)) {
            _ = try await GateProxy.exchange(post, upload: nil, pool: pool)
        }
        #expect(upstream.requests == 2)
        #expect(upstream.connections == 1)
        await upstream.stop()
    }

    @Test func aConnectionThatAlwaysClosesFailsAfterOneRetry() async throws {
        let upstream = try await ScriptedUpstream { _ in .close }
        let pool = try Self.pool(port: upstream.port, readTimeout: Self.closingUpstreamReadTimeout)
        await #expect(throws: UpstreamFailure(.connectionClosed)) {
            _ = try await GateProxy.exchange(Self.get("/base/x"), upload: nil, pool: pool)
        }
        // A fresh connection is not retried: one request, one connection.
        #expect(upstream.requests == 1)
        await upstream.stop()
    }

    @Test func largeAnswersStreamAndConnectionCloseIsHonoured() async throws {
        let big = String(repeating: "0123456789abcdef", count: 12_000)  // 192,000 bytes, over the complete limit
        let upstream = try await ScriptedUpstream { _ in ScriptedUpstream.ok(big, extraHeaders: "Connection: close\r\n")
        }
        let pool = try Self.pool(port: upstream.port)
        for _ in 0..<2 {
            let response = try await GateProxy.exchange(Self.get("/base/big"), upload: nil, pool: pool)
            guard case .streaming = response.body else {
                Issue.record("a 192,000-byte answer was buffered whole")
                return
            }
            #expect(try await Self.text(response) == big)
        }
        #expect(upstream.connections == 2)
        await upstream.stop()
    }

    @Test func garbageIsAnInvalidResponseAndSilenceATimeout() async throws {
        let garbage = try await ScriptedUpstream { _ in .answer("SMTP ready\r\n\r\n") }
        await #expect(throws: UpstreamFailure(.invalidResponse)) {
            _ = try await GateProxy.exchange(Self.get("/"), upload: nil, pool: try Self.pool(port: garbage.port))
        }
        await garbage.stop()

        let silent = try await ScriptedUpstream { _ in .stall }
        let started = ContinuousClock.now
        await #expect(throws: UpstreamFailure(.readTimeout)) {
            _ = try await GateProxy.exchange(
                Self.get("/"), upload: nil, pool: try Self.pool(port: silent.port, readTimeout: .milliseconds(300)))
        }
        #expect(ContinuousClock.now - started >= .milliseconds(300))
        await silent.stop()
    }

    @Test func aSlowReaderIsNotTimedOutWhileTheUpstreamWaitsForIt() async throws {
        // 4 MB: more than the 16 chunks the body buffers, so the connection stops reading while the reader pauses
        // for longer than the read timeout. The pause is the client's, not the upstream's: no timeout.
        let big = String(repeating: "x", count: 4 << 20)
        let upstream = try await ScriptedUpstream { _ in ScriptedUpstream.ok(big) }
        let pool = try Self.pool(port: upstream.port, readTimeout: .seconds(1))
        let response = try await GateProxy.exchange(Self.get("/big"), upload: nil, pool: pool)
        guard case .streaming(let chunks) = response.body else {
            Issue.record("a 4 MB answer was buffered whole")
            return
        }
        var received = 0
        var paused = false
        for try await chunk in chunks {
            received += chunk.readableBytes
            if !paused {
                paused = true
                try await Task.sleep(for: .milliseconds(2_500))
            }
        }
        #expect(received == 4 << 20)
        await upstream.stop()
    }

    @Test func switchingProtocolsIsAnInvalidResponse() async throws {
        let upstream = try await ScriptedUpstream { _ in
            .answer("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: upgrade\r\n\r\n")
        }
        await #expect(throws: UpstreamFailure(.invalidResponse)) {
            _ = try await GateProxy.exchange(Self.get("/"), upload: nil, pool: try Self.pool(port: upstream.port))
        }
        await upstream.stop()
    }

    @Test func aShutDownPoolOpensNothing() async throws {
        let upstream = try await ScriptedUpstream { _ in ScriptedUpstream.ok("ok") }
        let pool = try Self.pool(port: upstream.port)
        _ = try await GateProxy.exchange(Self.get("/"), upload: nil, pool: pool)
        pool.shutdown()
        await #expect(throws: UpstreamFailure(.connectionFailed)) {
            _ = try await GateProxy.exchange(Self.get("/"), upload: nil, pool: pool)
        }
        #expect(upstream.requests == 1)
        await upstream.stop()
    }

    @Test func headAnswersEndAtTheirHead() async throws {
        let upstream = try await ScriptedUpstream { _ in .answer("HTTP/1.1 200 OK\r\nContent-Length: 1234\r\n\r\n") }
        let pool = try Self.pool(port: upstream.port)
        var head = Self.get("/base/x")
        head.method = .HEAD
        for _ in 0..<2 {
            let response = try await GateProxy.exchange(head, upload: nil, pool: pool)
            #expect(response.head.headers["content-length"] == ["1234"])
            #expect(try await Self.text(response) == "")
        }
        #expect(upstream.connections == 1)
        await upstream.stop()
    }

    @Test func theConnectionLimitMakesRequestsWait() async throws {
        let upstream = try await ScriptedUpstream { index in ScriptedUpstream.ok("n\(index)") }
        let pool = try Self.pool(port: upstream.port, maxConnections: 1)
        try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<6 {
                group.addTask {
                    try await Self.text(try await GateProxy.exchange(Self.get("/"), upload: nil, pool: pool))
                }
            }
            var answers: [String] = []
            for try await answer in group { answers.append(answer) }
            #expect(answers.sorted() == ["n0", "n1", "n2", "n3", "n4", "n5"])
        }
        #expect(upstream.connections == 1)
        await upstream.stop()
    }

    @Test(.enabled(if: TestCertificates.opensslAvailable))
    func httpsUpstreamsAreVerified() async throws {
        let certificates = try TestCertificates()
        let serverContext = try NIOSSLContext(
            configuration: .makeServerConfiguration(
                certificateChain: try NIOSSLCertificate.fromPEMFile(certificates.serverCert).map { .certificate($0) },
                privateKey: .privateKey(try NIOSSLPrivateKey(file: certificates.serverKey, format: .pem))))
        let upstream = try await ScriptedUpstream(tls: serverContext) { index in ScriptedUpstream.ok("tls \(index)") }
        let endpoint = try #require(UpstreamEndpoint(baseURL: "https://localhost:\(upstream.port)"))
        let settings = UpstreamPool.Settings(connectTimeout: .seconds(2), readTimeout: .seconds(5), maxConnections: 2)

        var trusting = TLSConfiguration.makeClientConfiguration()
        trusting.trustRoots = .file(certificates.ca)
        let pool = try UpstreamPool(endpoint: endpoint, settings: settings, tlsConfiguration: trusting)
        for index in 0..<2 {
            #expect(
                try await Self.text(try await GateProxy.exchange(Self.get("/"), upload: nil, pool: pool))
                    == "tls \(index)")
        }
        #expect(upstream.connections == 1)

        // The same server under the system's trust roots: its certificate is refused, nothing is sent.
        let sent = upstream.requests
        let strict = try UpstreamPool(endpoint: endpoint, settings: settings)
        await #expect(throws: UpstreamFailure.self) {
            _ = try await GateProxy.exchange(Self.get("/"), upload: nil, pool: strict)
        }
        #expect(upstream.requests == sent)
        await upstream.stop()
    }

    @Test(arguments: [
        ("http://api.example.com", false, "api.example.com", 80, "", "api.example.com"),
        ("https://api.example.com/v1/", true, "api.example.com", 443, "/v1", "api.example.com"),
        ("http://127.0.0.1:8080/base", false, "127.0.0.1", 8080, "/base", "127.0.0.1:8080"),
        ("HTTPS://[::1]:8443/x", true, "::1", 8443, "/x", "[::1]:8443"),
    ])
    func endpointsParse(url: String, tls: Bool, host: String, port: Int, basePath: String, hostHeader: String) throws {
        let endpoint = try #require(UpstreamEndpoint(baseURL: url))
        #expect(endpoint.tls == tls)
        #expect(endpoint.host == host)
        #expect(endpoint.port == port)
        #expect(endpoint.basePath == basePath)
        #expect(endpoint.hostHeader == hostHeader)
        // SNI and the certificate's DNS names for a host name; an IP address is checked against IP entries.
        #expect(endpoint.tlsServerName == (host == "api.example.com" ? host : nil))
    }

    @Test(arguments: ["ftp://x", "http://", "http://user@x", "http://x:0", "http://x:99999", "http://x?q", "x.example"])
    func badEndpointsAreRefused(url: String) {
        #expect(UpstreamEndpoint(baseURL: url) == nil)
    }
}
