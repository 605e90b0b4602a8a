// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing
import VettIDAPI

@testable import VettIDClient

/// Records the delays a retry policy asked to sleep.
actor SleepRecorder {
    private(set) var delays: [Duration] = []
    func record(_ duration: Duration) { delays.append(duration) }
}

@Suite("Retry middleware")
struct RetryMiddlewareTests {
    func policy(_ recorder: SleepRecorder, attempts: Int = 3) -> RetryPolicy {
        RetryPolicy(
            maxAttempts: attempts,
            baseDelay: .milliseconds(100),
            maxDelay: .seconds(1),
            jitter: 0.5...1.0,
            sleep: { await recorder.record($0) },
            random: { $0.upperBound }
        )
    }

    func client(_ transport: FakeTransport, _ policy: RetryPolicy) -> Client {
        Client(
            serverURL: testBaseURL,
            transport: transport,
            middlewares: [RetryMiddleware(policy: policy), ErrorMappingMiddleware()]
        )
    }

    @Test("GET is retried on 503 with exponential backoff, then succeeds")
    func retriesGetOn503() async throws {
        let counter = RequestLog()
        let transport = FakeTransport { request in
            await counter.append(request)
            if await counter.requests.count < 3 { return errorResponse(.serviceUnavailable, code: "internal_error") }
            return jsonResponse(.ok, #"{"status":"ok","version":"1"}"#)
        }
        let recorder = SleepRecorder()
        let output = try await client(transport, policy(recorder)).getHealth()
        #expect(try output.ok.body.json.status == "ok")
        #expect(await transport.log.requests.count == 3)
        #expect(await recorder.delays == [.milliseconds(100), .milliseconds(200)])
    }

    @Test("502 and 504 are retried; the last failure is thrown after maxAttempts")
    func givesUp() async throws {
        let transport = FakeTransport { _ in errorResponse(.badGateway, code: "upstream_unavailable") }
        let recorder = SleepRecorder()
        await #expect(throws: (any Error).self) {
            _ = try await client(transport, policy(recorder, attempts: 4)).getHealth()
        }
        #expect(await transport.log.requests.count == 4)
        #expect(await recorder.delays.count == 3)
        let gateway = FakeTransport { _ in errorResponse(.gatewayTimeout, code: "upstream_unavailable") }
        _ = try? await client(gateway, policy(SleepRecorder(), attempts: 2)).getHealth()
        #expect(await gateway.log.requests.count == 2)
    }

    @Test("POST is never retried")
    func postNotRetried() async throws {
        let transport = FakeTransport { _ in errorResponse(.serviceUnavailable, code: "internal_error") }
        let recorder = SleepRecorder()
        await #expect(throws: (any Error).self) {
            _ = try await client(transport, policy(recorder)).login(body: .json(.init(email: "a@b.c", password: "p")))
        }
        #expect(await transport.log.requests.count == 1)
        #expect(await recorder.delays.isEmpty)
    }

    @Test("4xx and 500 are not retried")
    func clientErrorsNotRetried() async throws {
        for status in [HTTPResponse.Status.badRequest, .unauthorized, .notFound, .internalServerError] {
            let transport = FakeTransport { _ in errorResponse(status, code: "x") }
            _ = try? await client(transport, policy(SleepRecorder())).getHealth()
            #expect(await transport.log.requests.count == 1, "status \(status.code)")
        }
    }

    @Test("network errors on GET are retried")
    func networkErrorsRetried() async throws {
        let transport = FakeTransport { _ in
            throw FakeNetworkError()
        }
        let recorder = SleepRecorder()
        await #expect(throws: (any Error).self) {
            _ = try await client(transport, policy(recorder)).getHealth()
        }
        #expect(await transport.log.requests.count == 3)
        #expect(await recorder.delays.count == 2)
    }

    @Test("Retry-After replaces the computed delay, capped at maxDelay")
    func retryAfter() async throws {
        let transport = FakeTransport { _ in
            errorResponse(.serviceUnavailable, code: "internal_error", headers: [.retryAfter: "30"])
        }
        let recorder = SleepRecorder()
        _ = try? await client(transport, policy(recorder, attempts: 2)).getHealth()
        #expect(await recorder.delays == [.seconds(1)])
    }

    @Test("delays grow exponentially, are capped, and scale with jitter")
    func delayComputation() {
        let policy = RetryPolicy(baseDelay: .milliseconds(100), maxDelay: .milliseconds(700), random: { $0.lowerBound })
        #expect(policy.delay(beforeRetry: 1) == .milliseconds(50))
        #expect(policy.delay(beforeRetry: 2) == .milliseconds(100))
        #expect(policy.delay(beforeRetry: 3) == .milliseconds(200))
        #expect(policy.delay(beforeRetry: 4) == .milliseconds(350))
        #expect(policy.delay(beforeRetry: 40) == .milliseconds(350))
        let real = RetryPolicy(baseDelay: .milliseconds(100), maxDelay: .seconds(5))
        for _ in 0..<50 {
            let delay = real.delay(beforeRetry: 2)
            #expect(delay >= .milliseconds(100) && delay <= .milliseconds(200))
        }
    }
}
