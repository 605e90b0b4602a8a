// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing
import VettIDCore
import VettIDCrypto
import VettIDTestSupport

@testable import VettIDServer

/// What the test upstream received.
actor UpstreamRecorder {
    struct Seen: Sendable {
        let method: String
        let uri: String
        let headers: HTTPFields
        let bodyCount: Int
        let bodyText: String
    }

    private(set) var seen: [Seen] = []

    func record(_ value: Seen) { seen.append(value) }
}

/// The Gate proxy against a real upstream Hummingbird server on loopback.
@Suite struct GateProxyTests {
    static let apiKey = "upstream-secret-key-0123456789"

    /// Runs a live upstream: `/base/**` echoes what it got (recorded); `/base/slow` answers after 3 s.
    static func withUpstream(_ body: @escaping @Sendable (Int, UpstreamRecorder) async throws -> Void) async throws {
        let recorder = UpstreamRecorder()
        let router = Router()
        router.get("/base/slow") { _, _ -> String in
            try await Task.sleep(for: .seconds(3))
            return "late"
        }
        router.get("/base/drip") { _, _ -> Response in
            // Six chunks 1 s apart: longer in total than connect + read timeout (2 s + 3 s), never idle that long
            // (2 s to spare per gap on a loaded machine).
            let (stream, continuation) = AsyncStream<ByteBuffer>.makeStream()
            Task {
                for index in 0..<6 {
                    try await Task.sleep(for: .seconds(1))
                    continuation.yield(ByteBuffer(string: "chunk\(index);"))
                }
                continuation.finish()
            }
            return Response(status: .ok, headers: [.contentType: "text/plain"], body: .init(asyncSequence: stream))
        }
        router.patch("/base/early") { _, _ -> Response in
            // Answers without reading the upload.
            Response(
                status: .accepted, headers: [.contentType: "text/plain"],
                body: .init(byteBuffer: ByteBuffer(string: "early")))
        }
        for method in [HTTPRequest.Method.get, .post, .put, .delete] {
            router.on("/base/**", method: method) { request, _ -> Response in
                let buffer = try await request.body.collect(upTo: 16 << 20)
                let text = String(buffer: buffer)
                await recorder.record(
                    .init(
                        method: request.method.rawValue, uri: request.uri.description, headers: request.headers,
                        bodyCount: buffer.readableBytes, bodyText: buffer.readableBytes < 1_000 ? text : ""))
                var headers: HTTPFields = [.contentType: "text/plain", HTTPField.Name("X-Upstream")!: "yes"]
                headers[.dpopNonce] = "upstream-nonce-must-not-pass"
                // An upstream must not set cookies on the Gate's origin (it could overwrite the member's session).
                headers[.setCookie] = "auth-token=planted; Path=/"
                return Response(
                    status: method == .post ? .created : .ok, headers: headers,
                    body: .init(
                        byteBuffer: ByteBuffer(string: "echo:\(request.method.rawValue):\(buffer.readableBytes)")))
            }
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            try await body(try #require(client.port), recorder)
        }
    }

    static func configuration(port: Int, maxBody: Int = 4 << 20, readTimeout: Duration = .seconds(10))
        -> ServerConfiguration
    {
        GateTest.configuration(
            upstreams: [
                "echo": GateUpstream(
                    baseURL: "http://127.0.0.1:\(port)/base", apiKeyHeader: "X-Api-Key", apiKey: apiKey),
                "down": GateUpstream(baseURL: "http://127.0.0.1:1/base"),
            ],
            proxyMaxBodyBytes: maxBody, readTimeout: readTimeout)
    }

    static func proxied(
        _ client: some TestClientProtocol, _ device: GateTest.Device, token: String, nonce: String?,
        method: HTTPRequest.Method, path: String, body: ByteBuffer? = nil, extra: HTTPFields = [:]
    ) async throws -> TestResponse {
        let htuPath = String(path.split(separator: "?", maxSplits: 1)[0])
        var headers: HTTPFields = [
            .authorization: "DPoP \(token)",
            .dpop: try await device.proof(method.rawValue, htuPath, token: token, nonce: nonce),
        ]
        headers.append(contentsOf: extra)
        return try await client.execute(uri: path, method: method, headers: headers, body: body)
    }

    @Test(arguments: TestEngine.available)
    func theFullFlowReachesTheUpstreamWithTheAPIKeyOnly(engine: TestEngine) async throws {
        try await Self.withUpstream { port, recorder in
            try await TestApp.withApp(engine, configuration: Self.configuration(port: port)) { client, _ in
                let device = GateTest.Device()
                let (token, nonce) = try await client.gateAccessToken(device)

                let get = try await Self.proxied(
                    client, device, token: token, nonce: nonce, method: .get,
                    path: "/proxy/echo/v1/models?limit=2&q=a%20b",
                    extra: [.cookie: "auth-token=secret-cookie", HTTPField.Name("X-Custom")!: "kept"])
                #expect(get.status == .ok)
                #expect(String(buffer: get.body) == "echo:GET:0")
                #expect(get.headers[HTTPField.Name("X-Upstream")!] == "yes")
                #expect(get.headers[values: .dpopNonce].count == 1, "only the Gate's own nonce comes back")
                #expect(get.headers[.dpopNonce] != "upstream-nonce-must-not-pass")
                #expect(get.headers[.setCookie] == nil, "an upstream's Set-Cookie stays upstream")

                let payload = #"{"prompt":"hello"}"#
                let post = try await Self.proxied(
                    client, device, token: token, nonce: nonce, method: .post, path: "/proxy/echo/v1/chat",
                    body: ByteBuffer(string: payload), extra: [.contentType: "application/json"])
                #expect(post.status == .created)
                #expect(String(buffer: post.body) == "echo:POST:\(payload.utf8.count)")

                let seen = await recorder.seen
                #expect(seen.count == 2)
                let first = try #require(seen.first)
                #expect(first.method == "GET")
                #expect(first.uri == "/base/v1/models?limit=2&q=a%20b")
                #expect(first.headers[HTTPField.Name("X-Api-Key")!] == Self.apiKey)
                #expect(first.headers[HTTPField.Name("X-Custom")!] == "kept")
                #expect(first.headers[.authorization] == nil)
                #expect(first.headers[.dpop] == nil)
                #expect(first.headers[.cookie] == nil)
                let second = try #require(seen.last)
                #expect(second.method == "POST")
                #expect(second.uri == "/base/v1/chat")
                #expect(second.bodyText == payload)
                #expect(second.headers[.contentType] == "application/json")
                #expect(second.headers[HTTPField.Name("X-Api-Key")!] == Self.apiKey)
                #expect(second.headers[.authorization] == nil)
                #expect(second.headers[.dpop] == nil)
            }
        }
    }

    @Test func largeBodiesStreamPastTheJSONLimitAndTheProxyLimitHolds() async throws {
        try await Self.withUpstream { port, recorder in
            try await TestApp.withApp(.sqlite, configuration: Self.configuration(port: port, maxBody: 1 << 20)) {
                client, _ in
                let device = GateTest.Device()
                let (token, nonce) = try await client.gateAccessToken(device)
                // 512 KiB of non-JSON: the API's 64 KiB JSON body limit does not apply to proxied routes.
                let big = ByteBuffer(repeating: UInt8(ascii: "z"), count: 512 << 10)
                let accepted = try await Self.proxied(
                    client, device, token: token, nonce: nonce, method: .put, path: "/proxy/echo/upload", body: big,
                    extra: [.contentType: "application/octet-stream"])
                #expect(accepted.status == .ok)
                #expect(String(buffer: accepted.body) == "echo:PUT:\(512 << 10)")
                #expect(await recorder.seen.last?.bodyCount == 512 << 10)

                // Over the proxy's own limit: 413 before anything reaches the upstream.
                let count = await recorder.seen.count
                let tooBig = ByteBuffer(repeating: UInt8(ascii: "z"), count: (1 << 20) + 1)
                let refused = try await Self.proxied(
                    client, device, token: token, nonce: nonce, method: .put, path: "/proxy/echo/upload", body: tooBig,
                    extra: [.contentType: "application/octet-stream"])
                #expect(refused.status == .contentTooLarge)
                #expect(refused.errorCode == "payload_too_large")
                #expect(await recorder.seen.count == count)
            }
        }
    }

    /// The upstream answers before the upload is complete and the client sends the rest only after the answer: the
    /// HTTP client still waits for that rest when the response goes out. The server used to read the request
    /// body a second time, concurrently, to drain it, and crashed (found by schemathesis, a PATCH to /proxy/...).
    @Test func anUpstreamAnsweringBeforeTheUploadEndsLeavesTheConnectionUsable() async throws {
        try await Self.withUpstream { port, _ in
            try await TestApp.withApp(.sqlite, setup: .live, configuration: Self.configuration(port: port)) {
                client, _ in
                let device = GateTest.Device()
                let (token, nonce) = try await client.gateAccessToken(device)
                let proof = try await device.proof("PATCH", "/proxy/echo/early", token: token, nonce: nonce)
                let (early, next) = try await RawHTTPConnection.run(port: try #require(client.port)) { connection in
                    try connection.send(
                        "PATCH /proxy/echo/early HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: DPoP \(token)\r\n"
                            + "DPoP: \(proof)\r\nContent-Type: application/octet-stream\r\nContent-Length: 20\r\n\r\n"
                            + "first-ten.")
                    let early = try connection.readAnswer()
                    try connection.send("second-10.")
                    // The same connection serves the next request: the rest of the body was drained, not parsed.
                    try connection.send("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                    return (early, try connection.readAnswer())
                }
                #expect(early.status == 202)
                #expect(String(decoding: early.body, as: UTF8.self) == "early")
                #expect(next.status == 200)
                let health = try await client.execute(uri: "/health", method: .get)
                #expect(health.status == .ok, "the server is still up")
            }
        }
    }

    @Test func theProxyAsksForANonceWith401ThenAcceptsIt() async throws {
        try await Self.withUpstream { port, _ in
            try await TestApp.withApp(.sqlite, configuration: Self.configuration(port: port)) { client, _ in
                let device = GateTest.Device()
                let (token, _) = try await client.gateAccessToken(device)
                let first = try await Self.proxied(
                    client, device, token: token, nonce: nil, method: .get, path: "/proxy/echo/x")
                #expect(first.status == .unauthorized)
                #expect(first.errorCode == "use_dpop_nonce")
                #expect(first.headers[.wwwAuthenticate]?.contains(#"DPoP error="use_dpop_nonce""#) == true)
                let nonce = try #require(first.headers[.dpopNonce])
                let retry = try await Self.proxied(
                    client, device, token: token, nonce: nonce, method: .get, path: "/proxy/echo/x")
                #expect(retry.status == .ok)
            }
        }
    }

    @Test func tokensProofsAndPathsAreChecked() async throws {
        try await Self.withUpstream { port, recorder in
            try await TestApp.withApp(.sqlite, configuration: Self.configuration(port: port)) { client, _ in
                let device = GateTest.Device()
                let (token, nonce) = try await client.gateAccessToken(device)

                // No token; the token as Bearer; a forged token.
                let none = try await client.execute(uri: "/proxy/echo/x", method: .get)
                #expect(none.status == .unauthorized)
                #expect(none.errorCode == "invalid_token")
                let bearer = try await client.execute(
                    uri: "/proxy/echo/x", method: .get,
                    headers: [
                        .authorization: "Bearer \(token)",
                        .dpop: try await device.proof("GET", "/proxy/echo/x", token: token, nonce: nonce),
                    ])
                #expect(bearer.errorCode == "invalid_token")
                let forged = try await Self.proxied(
                    client, device, token: token + "x", nonce: nonce, method: .get, path: "/proxy/echo/x")
                #expect(forged.errorCode == "invalid_token")

                // Another key's proof with the token.
                let thief = GateTest.Device()
                let stolen = try await Self.proxied(
                    client, thief, token: token, nonce: nonce, method: .get, path: "/proxy/echo/x")
                #expect(stolen.status == .unauthorized)
                #expect(stolen.errorCode == "invalid_token")

                // A replayed proof.
                let proof = try await device.proof("GET", "/proxy/echo/x", token: token, nonce: nonce)
                let headers: HTTPFields = [.authorization: "DPoP \(token)", .dpop: proof]
                #expect(try await client.execute(uri: "/proxy/echo/x", method: .get, headers: headers).status == .ok)
                let replay = try await client.execute(uri: "/proxy/echo/x", method: .get, headers: headers)
                #expect(replay.status == .unauthorized)
                #expect(replay.errorCode == "invalid_dpop_proof")

                // Unknown upstream; a path climbing out of the base path.
                let unknown = try await Self.proxied(
                    client, device, token: token, nonce: nonce, method: .get, path: "/proxy/nope/x")
                #expect(unknown.status == .notFound)
                #expect(unknown.errorCode == "upstream_not_found")
                let climbing = try await Self.proxied(
                    client, device, token: token, nonce: nonce, method: .get, path: "/proxy/echo/a/%2e%2e/%2e%2e/secret"
                )
                #expect(climbing.status == .badRequest)
                #expect(await recorder.seen.allSatisfy { !$0.uri.contains("secret") })
            }
        }
    }

    @Test func upstreamFailuresAre502And504() async throws {
        try await Self.withUpstream { port, _ in
            try await TestApp.withApp(.sqlite, configuration: Self.configuration(port: port, readTimeout: .seconds(1)))
            {
                client, _ in
                let device = GateTest.Device()
                let (token, nonce) = try await client.gateAccessToken(device)
                let down = try await Self.proxied(
                    client, device, token: token, nonce: nonce, method: .get, path: "/proxy/down/x")
                #expect(down.status == .badGateway)
                #expect(down.errorCode == "upstream_unavailable")
                let slow = try await Self.proxied(
                    client, device, token: token, nonce: nonce, method: .get, path: "/proxy/echo/slow")
                #expect(slow.status == .gatewayTimeout)
                #expect(slow.errorCode == "upstream_timeout")
            }
        }
    }

    @Test func slowResponsesStreamPastTheHeadDeadline() async throws {
        try await Self.withUpstream { port, _ in
            let configuration = Self.configuration(port: port, readTimeout: .seconds(3))
            try await TestApp.withApp(.sqlite, configuration: configuration) { client, _ in
                let device = GateTest.Device()
                let (token, nonce) = try await client.gateAccessToken(device)
                let started = ContinuousClock.now
                let drip = try await Self.proxied(
                    client, device, token: token, nonce: nonce, method: .get, path: "/proxy/echo/drip")
                #expect(drip.status == .ok)
                #expect(String(buffer: drip.body) == "chunk0;chunk1;chunk2;chunk3;chunk4;chunk5;")
                // Connect (2 s) + read (3 s) bounds the head only; the body kept flowing for longer.
                #expect(ContinuousClock.now - started > .seconds(5))
            }
        }
    }

    @Test func noTokenProofOrAPIKeyReachesTheLogs() async throws {
        let log = LogCapture()
        let logger = log.logger(label: "capture")
        let secrets = SecretBox()
        try await Self.withUpstream { port, _ in
            try await TestApp.withApp(
                .sqlite, setup: .live, configuration: Self.configuration(port: port), logger: logger
            ) {
                client, _ in
                let device = GateTest.Device()
                let (token, nonce) = try await client.gateAccessToken(device)
                secrets.add(token)
                secrets.add(Self.apiKey)
                let proof = try await device.proof("POST", "/proxy/echo/v1/chat", token: token, nonce: nonce)
                secrets.add(proof)
                let response = try await client.execute(
                    uri: "/proxy/echo/v1/chat", method: .post,
                    headers: [.authorization: "DPoP \(token)", .dpop: proof, .contentType: "application/json"],
                    body: ByteBuffer(string: "{}"))
                #expect(response.status == .created)
                // A refused proxied request is logged too, without its secrets.
                _ = try await client.execute(
                    uri: "/proxy/echo/v1/chat", method: .post, headers: [.authorization: "DPoP \(token)", .dpop: proof])
                _ = try await client.execute(
                    uri: "/proxy/down/x", method: .get,
                    headers: [
                        .authorization: "DPoP \(token)",
                        .dpop: try await device.proof("GET", "/proxy/down/x", token: token, nonce: nonce),
                    ])
            }
        }
        #expect(log.entries.count > 5, "the capture saw the request logs")
        // Every record: message, metadata and error.
        let text = log.text
        #expect(text.contains("/proxy/echo/v1/chat"))
        for secret in secrets.values {
            #expect(!text.contains(secret))
            #expect(!text.contains(String(secret.prefix(24))))
        }
    }
}
