// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing
import VettIDAPI
import VettIDCore

@testable import VettIDClient

@Suite("Error mapping")
struct ErrorMappingTests {
    func makeClient(_ handler: @escaping FakeTransport.Handler) throws -> APIClient {
        let configuration = try APIClientConfiguration(
            baseURL: testBaseURL,
            transport: FakeTransport(handler: handler),
            retryPolicy: .disabled
        )
        return APIClient(configuration: configuration, session: TokenSession(store: InMemorySecureStore()))
    }

    @Test("weak_password keeps its reasons and score")
    func weakPassword() async throws {
        let client = try makeClient { _ in
            jsonResponse(
                .badRequest,
                #"{"error":"weak_password","error_description":"too weak","reasons":["too short","common word"],"score":1}"#
            )
        }
        let error = await #expect(throws: APIError.self) {
            _ = try await client.perform { try await $0.register(body: .json(.init(email: "a@b.c", password: "x"))) }
        }
        #expect(error?.code == .weakPassword)
        #expect(error?.status == 400)
        #expect(error?.description == "too weak")
        #expect(error?.reasons == ["too short", "common word"])
        #expect(error?.score == 1)
    }

    @Test("429 carries Retry-After")
    func rateLimited() async throws {
        let client = try makeClient { _ in
            errorResponse(.tooManyRequests, code: "rate_limited", headers: [.retryAfter: "7"])
        }
        do {
            _ = try await client.perform { try await $0.login(body: .json(.init(email: "a@b.c", password: "p"))) }
            Issue.record("expected an error")
        } catch APIError.rateLimited {
            // matched through the ~= overload
        } catch {
            Issue.record("unexpected error \(error)")
        }
        let error = await #expect(throws: APIError.self) {
            _ = try await client.perform { try await $0.login(body: .json(.init(email: "a@b.c", password: "p"))) }
        }
        #expect(error?.retryAfter == .seconds(7))
    }

    @Test("a body that is not the Error schema becomes http_error with the status")
    func nonJSONError() async throws {
        let client = try makeClient { _ in
            (HTTPResponse(status: .internalServerError), HTTPBody("<html>oops</html>"))
        }
        let error = await #expect(throws: APIError.self) {
            _ = try await client.perform { try await $0.getHealth() }
        }
        #expect(error?.code == .httpError)
        #expect(error?.status == 500)
    }

    @Test("unknown codes stay readable")
    func unknownCode() async throws {
        let client = try makeClient { _ in errorResponse(.conflict, code: "brand_new_code", description: "new") }
        let error = await #expect(throws: APIError.self) {
            _ = try await client.perform { try await $0.getHealth() }
        }
        #expect(error?.code == APIError.Code(rawValue: "brand_new_code"))
        #expect(error?.status == 409)
    }

    @Test("the ~= pattern sees through the runtime's ClientError wrapper")
    func patternThroughClientError() async throws {
        let configuration = try APIClientConfiguration(
            baseURL: testBaseURL,
            transport: FakeTransport { _ in errorResponse(.unauthorized, code: "invalid_token") },
            retryPolicy: .disabled
        )
        let raw = Client(
            serverURL: configuration.baseURL, transport: configuration.transport,
            middlewares: [ErrorMappingMiddleware()])
        do {
            _ = try await raw.getCurrentUser()
            Issue.record("expected an error")
        } catch let caught where APIError.invalidToken ~= caught {
            #expect(APIError.unwrap(caught)?.status == 401)
        } catch {
            Issue.record("not matched: \(error)")
        }
    }

    @Test("a transport failure becomes network_error")
    func networkError() async throws {
        let client = try makeClient { _ in throw FakeNetworkError() }
        let error = await #expect(throws: APIError.self) {
            _ = try await client.perform { try await $0.getHealth() }
        }
        #expect(error?.code == .networkError)
        #expect(error?.status == nil)
    }

    @Test("success passes through")
    func success() async throws {
        let client = try makeClient { _ in jsonResponse(.ok, #"{"status":"ok","version":"1.2.3"}"#) }
        let output = try await client.perform { try await $0.getHealth() }
        #expect(try output.ok.body.json.version == "1.2.3")
    }
}

@Suite("Retry-After parsing")
struct RetryAfterParsingTests {
    @Test("delay-seconds and IMF-fixdate")
    func parse() {
        let now = Date(timeIntervalSince1970: 1_700_000_000)  // Tue, 14 Nov 2023 22:13:20 GMT
        #expect(APIError.parseRetryAfter("120", now: now) == .seconds(120))
        #expect(APIError.parseRetryAfter(" 0 ", now: now) == .seconds(0))
        #expect(APIError.parseRetryAfter("-5", now: now) == nil)
        #expect(APIError.parseRetryAfter("Tue, 14 Nov 2023 22:14:20 GMT", now: now) == .seconds(60))
        #expect(APIError.parseRetryAfter("Tue, 14 Nov 2023 22:00:00 GMT", now: now) == .seconds(0))
        #expect(APIError.parseRetryAfter("soon", now: now) == nil)
    }
}
