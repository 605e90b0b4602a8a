// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import NIOHTTP1
import Testing
import VettIDCore
import VettIDTestSupport

@testable import VettIDServer

/// Malformed, oversized and mistyped requests get a clear JSON error and change nothing.
@Suite struct BadInputTests {
    func send(_ client: some TestClientProtocol, _ body: String, contentType: String? = "application/json") async throws
        -> TestResponse
    {
        var headers: HTTPFields = [:]
        if let contentType { headers[.contentType] = contentType }
        return try await client.execute(
            uri: "/auth/register", method: .post, headers: headers, body: ByteBuffer(string: body))
    }

    @Test(arguments: [
        (#"{"email": "a@example.com", "password": "vivid-Otter-parsley-42""#, "not valid JSON"),
        (#"not json at all"#, "not valid JSON"),
        (#"{"email": "a@example.com"}"#, "missing required field `password`"),
        (#"{"email": 42, "password": "vivid-Otter-parsley-42"}"#, "field `email` has the wrong type"),
        (#"{"email": null, "password": "vivid-Otter-parsley-42"}"#, "must not be null"),
        (#"{"email": "a@example.com", "password": "vivid-Otter-parsley-42", "admin": true}"#, "unknown field `admin`"),
        (#"[]"#, "the body has the wrong type"),
    ])
    func malformedBodiesAreInvalidRequest(body: String, fragment: String) async throws {
        try await TestApp.withApp(.sqlite) { client, app in
            let response = try await send(client, body)
            #expect(response.status == .badRequest)
            #expect(response.errorCode == "invalid_request")
            let description = try #require(response.json["error_description"] as? String)
            #expect(description.contains(fragment), "\(description)")
            #expect(response.headers[.contentType]?.hasPrefix("application/json") == true)
            #expect(
                try await MemberRepository(store: app.components.store).find(email: "a@example.com") == nil,
                "nothing stored")
        }
    }

    @Test func wrongContentTypeIs415() async throws {
        try await TestApp.withApp(.sqlite) { client, _ in
            for type in ["text/plain", "application/x-www-form-urlencoded", "application/jsonx"] {
                let response = try await send(
                    client, #"{"email":"a@example.com","password":"vivid-Otter-parsley-42"}"#, contentType: type)
                #expect(response.status == .unsupportedMediaType, "\(type)")
                #expect(response.errorCode == "unsupported_media_type")
            }
            let missing = try await send(
                client, #"{"email":"a@example.com","password":"vivid-Otter-parsley-42"}"#, contentType: nil)
            #expect(missing.status == .unsupportedMediaType)
            let withCharset = try await send(
                client, #"{"email":"a@example.com","password":"vivid-Otter-parsley-42"}"#,
                contentType: "application/json; charset=utf-8")
            #expect(withCharset.status == .created)
        }
    }

    @Test(arguments: [TestingSetup.router, TestingSetup.live])
    func oneMegabyteBodyIs413(setup: TestingSetup) async throws {
        try await TestApp.withApp(.sqlite, setup: setup) { client, _ in
            let padding = String(repeating: "x", count: 1 << 20)
            let response = try await send(client, #"{"email":"a@example.com","password":"\#(padding)"}"#)
            #expect(response.status == .contentTooLarge)
            #expect(response.errorCode == "payload_too_large")
        }
    }

    @Test func chunkedBodyOverTheLimitIs413() async throws {
        try await TestApp.withApp(.sqlite, setup: .live) { client, app in
            let port = try #require(client.port)
            // A body with no Content-Length (AsyncHTTPClient sends it chunked) that crosses the 64 KiB limit while
            // streaming, and a small one that is read normally (its weak password is refused, not its framing).
            for (size, status) in [(80 * 1_024, 413), (64 * 1_024, 413), (10, 400)] {
                var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/auth/register")
                request.method = .POST
                request.headers.add(name: "Content-Type", value: "application/json")
                let body =
                    Array(#"{"email":"a@example.com","password":""#.utf8)
                    + [UInt8](repeating: UInt8(ascii: "x"), count: size) + Array(#""}"#.utf8)
                let chunks = AsyncStream<ByteBuffer> { continuation in
                    var offset = 0
                    while offset < body.count {
                        let end = min(offset + 8_192, body.count)
                        continuation.yield(ByteBuffer(bytes: body[offset..<end]))
                        offset = end
                    }
                    continuation.finish()
                }
                request.body = .stream(chunks, length: .unknown)
                let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
                #expect(Int(response.status.code) == status, "\(size) bytes")
                _ = try await response.body.collect(upTo: 1 << 16)
            }
            #expect(try await MemberRepository(store: app.components.store).find(email: "a@example.com") == nil)
        }
    }

    @Test func nullIsRefusedForOptionalFieldsToo() async throws {
        try await TestApp.withApp(.sqlite) { client, _ in
            for (path, body) in [
                ("/attest/challenge", #"{"purpose": null}"#),
                ("/attest/challenge", #"{"purpose":"attest","x":[null]}"#),
                ("/auth/register", #"{"email":"a@example.com","password":"vivid-Otter-parsley-42","first_name":null}"#),
            ] {
                let response = try await client.execute(
                    uri: path, method: .post, headers: [.contentType: "application/json"],
                    body: ByteBuffer(string: body))
                #expect(response.status == .badRequest, "\(body)")
                #expect(response.errorCode == "invalid_request")
            }
            // "null" inside a string is data.
            let text = try await client.execute(
                uri: "/auth/register", method: .post, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"email":"null@example.com","password":"vivid-Otter-null-parsley-42"}"#))
            #expect(text.status == .created)
        }
    }

    @Test func unknownRoutesAre404AndWrongMethods405WithAllow() async throws {
        try await TestApp.withApp(.sqlite, setup: .live) { client, _ in
            let missing = try await client.execute(uri: "/no/such/thing", method: .get)
            #expect(missing.status == .notFound)
            #expect(missing.errorCode == "not_found")
            for (method, path, allow) in [
                (HTTPRequest.Method.delete, "/auth/login", "POST"), (.get, "/auth/login", "POST"),
                (.post, "/health", "GET"), (.put, "/vault/invitations", "GET, POST"),
            ] {
                let response = try await client.execute(uri: path, method: method)
                #expect(response.status == .methodNotAllowed, "\(method) \(path)")
                #expect(response.errorCode == "method_not_allowed")
                #expect(
                    response.headers[.allow].map {
                        Set($0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
                    } == Set(allow.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }),
                    "\(method) \(path)")
            }
            // A templated path: POST is served, GET is not.
            let templated = try await client.execute(uri: "/vault/invitations/ABCD-EFGH/revoke", method: .get)
            #expect(templated.status == .methodNotAllowed)
            #expect(templated.headers[.allow] == "POST")
            let port = try #require(client.port)
            #expect(
                try await RawHTTP.status(port: port, head: "TRACE /health HTTP/1.1\r\nHost: localhost\r\n\r\n") == 405)
            #expect(
                try await RawHTTP.status(port: port, head: "TRACE /nowhere HTTP/1.1\r\nHost: localhost\r\n\r\n") == 404)
        }
    }

    @Test func healthAndRequestIDs() async throws {
        try await TestApp.withApp(.sqlite, setup: .live) { client, _ in
            let health = try await client.execute(uri: "/health", method: .get)
            #expect(health.status == .ok)
            #expect(health.json["status"] as? String == "ok")
            #expect(health.headers[.xRequestID]?.isEmpty == false)
            let echoed = try await client.execute(uri: "/health", method: .get, headers: [.xRequestID: "trace-abc_123"])
            #expect(echoed.headers[.xRequestID] == "trace-abc_123")
            let refused = try await client.execute(
                uri: "/health", method: .get, headers: [.xRequestID: "bad id with spaces"])
            #expect(refused.headers[.xRequestID] != "bad id with spaces")
        }
    }
}
