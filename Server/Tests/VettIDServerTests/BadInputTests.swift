import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

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
        (#"{"email": "a@example.com", "password": "vivid-Otter-parsley-42", "admin": true}"#, "does not accept"),
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

    @Test func unknownRoutesAndMethodsAreJSONErrors() async throws {
        try await TestApp.withApp(.sqlite) { client, _ in
            let missing = try await client.execute(uri: "/no/such/thing", method: .get)
            #expect(missing.status == .notFound)
            #expect(missing.errorCode == "not_found")
            let wrongMethod = try await client.execute(uri: "/auth/login", method: .get)
            #expect([HTTPResponse.Status.notFound, .methodNotAllowed].contains(wrongMethod.status))
            #expect(wrongMethod.errorCode != nil)
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
