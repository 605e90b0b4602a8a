// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes
import HummingbirdTesting
import InMemoryLogging
import Logging
import NIOCore
import Testing
import VettIDCrypto
import VettIDTestSupport

@testable import VettIDServer

/// `/metrics` (token-protected Prometheus text), `/health/ready`, and request id + route on every log line.
@Suite struct ObservabilityTests {
    static let token = "scrape-token-0123456789"

    static func configuration() -> ServerConfiguration {
        var configuration = TestApp.configuration()
        configuration.metricsToken = token
        return configuration
    }

    func scrape(_ client: some TestClientProtocol) async throws -> String {
        let response = try await client.execute(
            uri: "/metrics", method: .get, headers: [.authorization: "Bearer \(Self.token)"])
        #expect(response.status == .ok)
        #expect(response.headers[.contentType]?.hasPrefix("text/plain; version=0.0.4") == true)
        return String(buffer: response.body)
    }

    @Test func metricsAreNotServedWithoutAToken() async throws {
        try await TestApp.withApp(.sqlite) { client, _ in
            let response = try await client.execute(uri: "/metrics", method: .get)
            #expect(response.status == .notFound)
        }
    }

    @Test func metricsNeedTheScrapeToken() async throws {
        try await TestApp.withApp(.sqlite, configuration: Self.configuration()) { client, _ in
            for header: HTTPFields in [
                [:], [.authorization: "Bearer wrong-token-0123456789"], [.authorization: Self.token],
            ] {
                let response = try await client.execute(uri: "/metrics", method: .get, headers: header)
                #expect(response.status == .unauthorized)
                #expect(response.errorCode == "invalid_token")
            }
        }
    }

    @Test(arguments: TestEngine.available)
    func requestsRefusalsHashesAndRateLimitsAreCounted(engine: TestEngine) async throws {
        try await TestApp.withApp(engine, configuration: Self.configuration()) { client, _ in
            _ = try await client.post(
                "/auth/register", ["email": "metrics@example.com", "password": "vivid-Otter-parsley-42"])
            _ = try await client.post(
                "/auth/login", ["email": "metrics@example.com", "password": "wrong-password-000"])
            // A proof for another origin: refused (invalid_dpop_proof).
            let proof = try await DPoPProofBuilder(signer: SoftwareDPoPSigner()).proof(
                method: "POST", url: "http://127.0.0.1:8080/auth/login", accessToken: nil, nonce: nil)
            _ = try await client.post(
                "/auth/login", ["email": "metrics@example.com", "password": "vivid-Otter-parsley-42"],
                headers: [.dpop: proof])
            // Five failures for the account from this client: the sixth attempt is rate limited.
            for _ in 0..<5 {
                _ = try await client.post(
                    "/auth/login", ["email": "metrics@example.com", "password": "wrong-password-000"])
            }
            _ = try await client.execute(uri: "/vault/invitations/ABCD-EFGH/revoke", method: .post)
            let text = try await scrape(client)
            #expect(
                text.contains(#"vettid_http_requests_total{method="POST",route="/auth/register",status="201"} 1"#),
                "\(text)")
            #expect(text.contains(#"vettid_http_requests_total{method="POST",route="/auth/login",status="401"}"#))
            #expect(text.contains(#"route="/vault/invitations/{code}/revoke""#), "route templates, not raw paths")
            #expect(!text.contains("ABCD-EFGH"))
            #expect(text.contains("vettid_http_request_duration_seconds_bucket"))
            #expect(text.contains(#"vettid_auth_refusals_total{code="invalid_credentials"}"#))
            #expect(text.contains(#"vettid_dpop_refusals_total{code="invalid_dpop_proof"} 1"#))
            #expect(text.contains(#"vettid_rate_limited_total{route="/auth/login"}"#))
            #expect(text.contains("vettid_argon2_queue_wait_seconds_count"))
            #expect(text.contains("vettid_argon2_in_flight 0.0"))
        }
    }

    @Test func readyWhenTheStoreAnswersAndNATSIsNotConfigured() async throws {
        try await TestApp.withApp(.sqlite) { client, _ in
            let response = try await client.execute(uri: "/health/ready", method: .get)
            #expect(response.status == .ok)
            #expect(response.json["status"] as? String == "ready")
            #expect(response.json["checks"] as? [String: String] == ["store": "ok", "nats": "not_configured"])
        }
    }

    @Test func notReadyWhenTheStoreDoesNotAnswer() async throws {
        // A real PostgreSQL client pointed at a port where nothing listens.
        let store = try PostgresStore(
            url: "postgres://vettid@127.0.0.1:9/vettid?sslmode=disable", logger: Logger(label: "t"))
        let report = await ReadinessProbe(store: store, natsConnected: nil).check()
        #expect(report == .init(storeOK: false, natsConnected: nil))
        #expect(!report.isReady)
        #expect(ReadinessProbe.Report(storeOK: true, natsConnected: false).isReady == false)
        #expect(ReadinessProbe.Report(storeOK: true, natsConnected: true).isReady)
        try await store.shutdown()
    }

    @Test func everyLogLineOfARequestCarriesItsIDAndRoute() async throws {
        let log = LogCapture()
        let logger = log.logger(label: "capture", level: .debug)
        try await TestApp.withApp(.sqlite, setup: .live, logger: logger) { client, _ in
            _ = try await client.registerAndLogin(email: "lines@example.com")
            _ = try await client.post("/auth/login", ["email": "lines@example.com", "password": "wrong-password-000"])
        }
        let requestLines = log.entries.filter {
            ["request", "member registered", "member logged in", "login failed"].contains($0.message.description)
        }
        #expect(requestLines.count >= 6)
        for entry in requestLines {
            #expect(entry.metadata["request_id"] != nil, "\(entry.message)")
            #expect(entry.metadata["route"] != nil, "\(entry.message)")
        }
        #expect(requestLines.contains { $0.metadata["route"]?.description == "/auth/login" })
    }

    @Test func jsonLogLinesAreOneObjectEach() throws {
        let lines = SecretBox()
        var logger = Logger(label: "vettid-server") { JSONLogHandler(label: $0) { lines.add($0) } }
        logger[metadataKey: "request_id"] = "r-1"
        logger.info("request", metadata: ["status": .stringConvertible(200), "message": "shadow"])
        let line = try #require(lines.values.first)
        #expect(line.hasSuffix("\n") && line.dropLast().contains("\n") == false)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["message"] as? String == "request")
        #expect(object["meta_message"] as? String == "shadow")
        #expect(object["level"] as? String == "info")
        #expect(object["request_id"] as? String == "r-1")
        #expect(object["status"] as? String == "200")
        #expect((object["timestamp"] as? String)?.hasSuffix("Z") == true)
    }

    /// Each request series is made once and then only recorded into; a method outside the standard ones is counted
    /// as OTHER, so a client cannot grow the registry by inventing methods.
    @Test func requestSeriesAreReusedAndMethodsBounded() {
        let metrics = ServerMetrics()
        for method in ["GET", "GET", "BREW", "X-ANY-1", "X-ANY-2"] {
            metrics.request(method: method, route: "/health", status: 200, duration: .milliseconds(3))
        }
        let text = String(decoding: metrics.exposition(), as: UTF8.self)
        #expect(text.contains(#"vettid_http_requests_total{method="GET",route="/health",status="200"} 2"#))
        #expect(text.contains(#"vettid_http_requests_total{method="OTHER",route="/health",status="200"} 3"#))
        #expect(!text.contains("BREW") && !text.contains("X-ANY"))
        #expect(
            text.contains(#"vettid_http_request_duration_seconds_count{method="GET",route="/health",status="200"} 2"#))
    }
}
