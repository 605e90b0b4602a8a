// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import Foundation
import InMemoryLogging
import Logging
import NIOConcurrencyHelpers
import NIOSSL
import Testing
import VettIDCore
import VettIDCrypto
import VettIDLocalAPNS
import VettIDTestSupport

@testable import VettIDServer

/// The APNs provider against ``LocalAPNSServer``, a real HTTP/2 + TLS server on loopback that checks the provider
/// token, the headers and the path as Apple documents them: one test per answer and its reaction.
@Suite(.serialized) struct APNSProviderLiveTests {
    static let topic = "org.vettid.app"
    static let keyID = "KEY1234567"
    static let teamID = "TEAM123456"

    /// A device token that cues `name` (first byte) and is unique per test (the rest).
    static func token(_ first: String) -> String {
        let tail = UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        return String((first + String(repeating: "0", count: 64)).prefix(64 - tail.count)) + tail
    }

    @Test func aPushIsDeliveredOverHTTP2WithAppleHeadersAndAContentFreePayload() async throws {
        let token = Self.token("00")
        try await APNSRig.run { rig in
            let request = rig.request(token)
            let outcome = try await rig.push(request)
            #expect(outcome.disposition == .delivered)
            #expect(outcome.status == 200)
            #expect(outcome.attempts == 1)
            let exchange = try #require(rig.server.exchanges.last)
            #expect(exchange.method == "POST")
            #expect(exchange.path == "/3/device/" + token)
            #expect(exchange.headers["apns-push-type"] == "alert")
            #expect(exchange.headers["apns-priority"] == "10")
            #expect(exchange.headers["apns-topic"] == Self.topic)
            #expect(exchange.headers["apns-collapse-id"] == "vettid.mailbox")
            #expect(exchange.headers["apns-id"] == request.pushID.uuidString)
            #expect(exchange.headers["apns-expiration"] == String(rig.clock.wall.unixSeconds() + 86_400))
            let payload = try #require(JSONValue.parse(exchange.payload))
            #expect(payload["aps"]?["mutable-content"] == .integer(1))
            #expect(payload.objectMembers?.map { $0.0 } == ["aps"])
            #expect(rig.exposition.contains(#"vettid_apns_pushes_sent_total{environment="production"} 1"#))
            // The token never reaches the logs; its hash does.
            #expect(!rig.logText.contains(token))
            #expect(rig.logText.contains(request.tokenLogID))
        }
    }

    @Test func aProviderKeyReadFromAP8FileIsAcceptedAndTheSandboxUsesItsOwnEndpoint() async throws {
        try await APNSRig.run(loadKeyFromFile: true) { rig in
            let outcome = try await rig.push(rig.request(Self.token("01"), environment: .sandbox))
            #expect(outcome.disposition == .delivered)
            #expect(rig.exposition.contains(#"vettid_apns_pushes_sent_total{environment="sandbox"} 1"#))
        }
    }

    @Test func concurrentPushesShareOneHTTP2ConnectionPerEnvironment() async throws {
        try await APNSRig.run { rig in
            let requests = (0..<40).map { index in
                rig.request(Self.token("00"), environment: index % 2 == 0 ? .production : .sandbox)
            }
            for request in requests { #expect(rig.provider.enqueue(request) == .queued) }
            for request in requests {
                let outcome = try await rig.outcomes.outcome(of: request.pushID)
                #expect(outcome.disposition == .delivered)
            }
            // Both environments point at the one test server: one connection each, every push a stream on it.
            #expect(rig.server.connectionCount == 2)
            #expect(Set(rig.server.exchanges.map(\.connection)).count == 2)
            #expect(rig.exposition.contains(#"vettid_apns_pushes_sent_total{environment="sandbox"} 20"#))
        }
    }

    @Test func badDeviceToken400DropsTheToken() async throws {
        let token = Self.token("b0")
        try await APNSRig.run(cues: [token: .badDeviceToken]) { rig in
            let outcome = try await rig.push(rig.request(token))
            #expect(outcome.disposition == .dropToken)
            #expect(outcome.status == 400)
            #expect(outcome.reason == "BadDeviceToken")
            #expect(outcome.attempts == 1)
            #expect(rig.exposition.contains(#"vettid_apns_tokens_dropped_total{reason="BadDeviceToken"} 1"#))
        }
    }

    @Test func deviceTokenNotForTopic400DropsTheToken() async throws {
        let token = Self.token("b1")
        try await APNSRig.run(cues: [token: .deviceTokenNotForTopic]) { rig in
            let outcome = try await rig.push(rig.request(token))
            #expect(outcome.disposition == .dropToken)
            #expect(outcome.reason == "DeviceTokenNotForTopic")
        }
    }

    @Test func expiredProviderToken403SignsANewTokenOnceAndRetries() async throws {
        let token = Self.token("e0")
        try await APNSRig.run(cues: [token: .expiredProviderTokenOnce]) { rig in
            let outcome = try await rig.push(rig.request(token))
            #expect(outcome.disposition == .delivered)
            #expect(outcome.attempts == 2)
            let sent = rig.server.exchanges.compactMap(\.providerToken)
            #expect(sent.count == 2 && sent[0] != sent[1])
            #expect(rig.sleeps.values.isEmpty)
            // The new token is kept for the next pushes: no token per request.
            _ = try await rig.push(rig.request(Self.token("00")))
            #expect(rig.server.exchanges.last?.providerToken == sent[1])
            #expect(rig.exposition.contains("vettid_apns_provider_tokens_signed_total 2"))
        }
    }

    @Test func expiredProviderToken403TwiceFailsWithoutALoop() async throws {
        let token = Self.token("e1")
        try await APNSRig.run(cues: [token: .expiredProviderTokenAlways]) { rig in
            let outcome = try await rig.push(rig.request(token))
            #expect(outcome.disposition == .failed)
            #expect(outcome.reason == "ExpiredProviderToken")
            #expect(outcome.attempts == 2)
        }
    }

    @Test func otherProviderToken403FailsAndKeepsTheDeviceToken() async throws {
        // The provider signs for another team than the server expects: 403 InvalidProviderToken.
        try await APNSRig.run(providerTeamID: "OTHERTEAM1") { rig in
            let outcome = try await rig.push(rig.request(Self.token("00")))
            #expect(outcome.disposition == .failed)
            #expect(outcome.status == 403)
            #expect(outcome.reason == "InvalidProviderToken")
            #expect(outcome.attempts == 1)
            #expect(rig.logText.contains("InvalidProviderToken"))
        }
    }

    @Test func unregistered410LaterThanTheRegistrationDropsTheToken() async throws {
        let token = Self.token("10")
        let registered = Date(timeIntervalSince1970: 1_790_000_000)
        try await APNSRig.run(cues: [token: .unregistered(timestamp: 1_790_000_000_001)]) { rig in
            let outcome = try await rig.push(rig.request(token, registeredAt: registered))
            #expect(outcome.disposition == .dropToken)
            #expect(outcome.status == 410)
            #expect(outcome.reason == "Unregistered")
            #expect(rig.exposition.contains(#"vettid_apns_tokens_dropped_total{reason="Unregistered"} 1"#))
        }
    }

    @Test func unregistered410BeforeTheRegistrationKeepsTheToken() async throws {
        let token = Self.token("11")
        let registered = Date(timeIntervalSince1970: 1_790_000_000)
        try await APNSRig.run(cues: [token: .unregistered(timestamp: 1_789_999_999_000)]) { rig in
            let outcome = try await rig.push(rig.request(token, registeredAt: registered))
            #expect(outcome.disposition == .failed)
            #expect(outcome.status == 410)
            #expect(outcome.attempts == 1)
            #expect(!rig.exposition.contains("vettid_apns_tokens_dropped_total"))
        }
    }

    @Test func payloadTooLarge413FailsWithoutRetry() async throws {
        let token = Self.token("41")
        try await APNSRig.run(cues: [token: .payloadTooLarge]) { rig in
            let outcome = try await rig.push(rig.request(token))
            #expect(outcome.disposition == .failed)
            #expect(outcome.status == 413)
            #expect(outcome.reason == "PayloadTooLarge")
            #expect(outcome.attempts == 1)
        }
    }

    @Test func tooManyRequests429BacksOffWithJitterAndRetries() async throws {
        let token = Self.token("42")
        try await APNSRig.run(cues: [token: .tooManyRequests(times: 2)]) { rig in
            let outcome = try await rig.push(rig.request(token))
            #expect(outcome.disposition == .delivered)
            #expect(outcome.attempts == 3)
            // Equal jitter at 0.5: 0.25 + 0.125 s, then 0.5 + 0.25 s.
            #expect(rig.sleeps.values == [.milliseconds(375), .milliseconds(750)])
            #expect(rig.exposition.contains(#"vettid_apns_push_failures_total{reason="TooManyRequests"} 2"#))
            #expect(rig.exposition.contains("vettid_apns_retries_total 2"))
        }
    }

    @Test func tooManyProviderTokenUpdates429WhenTheTokenChangesTooOftenOnAConnection() async throws {
        // The server allows a change every 60 minutes; the provider changes at 40: 429, then the retry (same new
        // token, no further change) is taken.
        try await APNSRig.run(minimumTokenInterval: 3_600) { rig in
            #expect(try await rig.push(rig.request(Self.token("00"))).disposition == .delivered)
            rig.clock.advance(41 * 60)
            let outcome = try await rig.push(rig.request(Self.token("00")))
            #expect(outcome.disposition == .delivered)
            #expect(outcome.attempts == 2)
            #expect(rig.server.exchanges.map(\.status) == [200, 429, 200])
            #expect(rig.server.exchanges.map(\.reason)[1] == "TooManyProviderTokenUpdates")
            #expect(rig.server.connectionCount == 1)
            #expect(
                rig.exposition.contains(#"vettid_apns_push_failures_total{reason="TooManyProviderTokenUpdates"} 1"#))
        }
    }

    @Test func theProviderTokenIsKeptFortyMinutesAndItsChangeIsAccepted() async throws {
        try await APNSRig.run { rig in
            for _ in 0..<3 { _ = try await rig.push(rig.request(Self.token("00"))) }
            rig.clock.advance(39 * 60)
            _ = try await rig.push(rig.request(Self.token("00")))
            #expect(Set(rig.server.exchanges.compactMap(\.providerToken)).count == 1)
            rig.clock.advance(60)
            let outcome = try await rig.push(rig.request(Self.token("00")))
            #expect(outcome.disposition == .delivered)
            #expect(Set(rig.server.exchanges.compactMap(\.providerToken)).count == 2)
            #expect(rig.server.exchanges.allSatisfy { $0.status == 200 })
        }
    }

    @Test func internalServerError500BacksOffAndRetries() async throws {
        let token = Self.token("50")
        try await APNSRig.run(cues: [token: .internalServerError(times: 1)]) { rig in
            let outcome = try await rig.push(rig.request(token))
            #expect(outcome.disposition == .delivered)
            #expect(outcome.attempts == 2)
            #expect(rig.sleeps.values == [.milliseconds(375)])
        }
    }

    @Test func serviceUnavailable503BacksOffAndRetries() async throws {
        let token = Self.token("53")
        try await APNSRig.run(cues: [token: .serviceUnavailable(times: 2)]) { rig in
            let outcome = try await rig.push(rig.request(token))
            #expect(outcome.disposition == .delivered)
            #expect(outcome.attempts == 3)
        }
    }

    @Test func retriesAreBoundedByMaxAttempts() async throws {
        let token = Self.token("54")
        try await APNSRig.run(cues: [token: .serviceUnavailable(times: 100)], maxAttempts: 3) { rig in
            let outcome = try await rig.push(rig.request(token))
            #expect(outcome.disposition == .failed)
            #expect(outcome.reason == "ServiceUnavailable")
            #expect(outcome.attempts == 3)
            #expect(rig.sleeps.values.count == 2)
            #expect(rig.exposition.contains(#"vettid_apns_pushes_undelivered_total{disposition="failed"} 1"#))
        }
    }

    @Test func goAwayIsRetriedOnANewConnection() async throws {
        let token = Self.token("60")
        try await APNSRig.run(cues: [token: .goAway(times: 1)]) { rig in
            let outcome = try await rig.push(rig.request(token))
            #expect(outcome.disposition == .delivered)
            #expect(rig.server.goAwayCount == 1)
            #expect(rig.server.connectionCount == 2)
            #expect(outcome.attempts == 2)
            #expect(rig.exposition.contains(#"vettid_apns_push_failures_total{reason="ConnectionError"} 1"#))
        }
    }

    @Test func aLostConnectionIsRetriedThenGivenUp() async throws {
        // Nothing listens: every attempt is a connection error.
        try await APNSRig.run(maxAttempts: 2, stopServerFirst: true) { rig in
            let outcome = try await rig.push(rig.request(Self.token("00")))
            #expect(outcome.disposition == .failed)
            #expect(outcome.status == nil)
            #expect(outcome.reason == "ConnectionError")
            #expect(outcome.attempts == 2)
        }
    }

    @Test func aRequestWithoutAnAnswerInTimeIsATimeout() async throws {
        let stalled = Self.token("5b")
        try await APNSRig.run(cues: [stalled: .stall], maxAttempts: 2, requestTimeout: .milliseconds(300)) { rig in
            let outcome = try await rig.push(rig.request(stalled))
            #expect(outcome.disposition == .failed)
            #expect(outcome.reason == "Timeout")
            #expect(outcome.attempts == 2)
            #expect(rig.exposition.contains(#"vettid_apns_push_failures_total{reason="Timeout"} 2"#))
        }
    }

    @Test func anEndpointAnsweringOverHTTP1IsRefusedWithoutRetry() async throws {
        // A TLS server without ALPN h2 (ScriptedUpstream speaks HTTP/1.1): not APNs.
        let material = try NATSTLSMaterial.generate(hosts: ["127.0.0.1"])
        let tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: try NIOSSLCertificate.fromPEMBytes(Array(material.certificatePEM.utf8)).map {
                .certificate($0)
            },
            privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(material.privateKeyPEM.utf8), format: .pem)))
        let http1 = try await ScriptedUpstream(tls: try NIOSSLContext(configuration: tls)) { _ in
            ScriptedUpstream.ok("")
        }
        do {
            try await APNSRig.run(endpoint: ("https://127.0.0.1:\(http1.port)", material.caPEM)) { rig in
                let outcome = try await rig.push(rig.request(Self.token("00")))
                #expect(outcome.disposition == .failed)
                #expect(outcome.reason == "NotHTTP2")
                #expect(outcome.attempts == 1)
                #expect(http1.requests == 1)
            }
        } catch {
            await http1.stop()
            throw error
        }
        await http1.stop()
    }

    @Test func enqueueNeverWaitsForAStalledAPNs() async throws {
        let stalled = Self.token("5a")
        try await APNSRig.run(cues: [stalled: .stall], maxConcurrentSends: 1) { rig in
            #expect(rig.provider.enqueue(rig.request(stalled)) == .queued)
            // The one sender is stuck on the stalled request; the mailbox keeps enqueueing at memory speed.
            while rig.server.exchanges.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
            let started = ContinuousClock.now
            for _ in 0..<500 { #expect(rig.provider.enqueue(rig.request(Self.token("00"))) == .queued) }
            #expect(ContinuousClock.now - started < .seconds(1))
            #expect(rig.provider.queuedCount == 500)
            #expect(rig.exposition.contains("vettid_apns_queue_depth 500"))
        }
    }

    @Test func enqueueCoalescesPerDeviceDropsWhenFullAndRefusesBadInput() async throws {
        try await APNSRig.run(queueCapacity: 2, startProvider: false) { rig in
            let first = rig.request(Self.token("00"))
            #expect(rig.provider.enqueue(first) == .queued)
            #expect(rig.provider.enqueue(rig.request(first.deviceToken)) == .coalesced)
            #expect(rig.provider.enqueue(rig.request(Self.token("00"))) == .queued)
            #expect(rig.provider.enqueue(rig.request(Self.token("00"))) == .queueFull)
            #expect(rig.provider.enqueue(rig.request("abc")) == .invalid)
            var otherTopic = rig.request(Self.token("00"))
            otherTopic.topic = "org.example.other"
            #expect(rig.provider.enqueue(otherTopic) == .invalid)
            #expect(rig.provider.queuedCount == 2)
            #expect(rig.exposition.contains(#"vettid_apns_queue_dropped_total{cause="full"} 1"#))
            #expect(rig.exposition.contains("vettid_apns_queue_coalesced_total 1"))
        }
    }
}

/// A provider wired to a fresh ``LocalAPNSServer``, with a manual clock, recorded back-offs and captured logs.
struct APNSRig: Sendable {
    let server: LocalAPNSServer
    let provider: APNSProvider
    let clock: ManualClock
    let metrics: ServerMetrics
    let sleeps: APNSSleepRecorder
    let outcomes: APNSOutcomeRecorder
    let logs: InMemoryLogHandler

    var exposition: String { String(decoding: metrics.exposition(), as: UTF8.self) }
    var logText: String {
        logs.entries.map { "\($0.message) \($0.metadata.map { "\($0.key)=\($0.value)" }.joined(separator: " "))" }
            .joined(separator: "\n")
    }

    func request(
        _ token: String, environment: APNSEnvironment = .production, registeredAt: Date? = nil
    ) -> APNSPushRequest {
        APNSPushRequest(
            deviceToken: token, environment: environment, topic: APNSProviderLiveTests.topic,
            registeredAt: registeredAt ?? clock.wall.now().addingTimeInterval(-86_400))
    }

    /// Enqueues `request` and waits (at most 30 s) for its outcome.
    func push(_ request: APNSPushRequest) async throws -> APNSPushOutcome {
        #expect(provider.enqueue(request) == .queued)
        return try await outcomes.outcome(of: request.pushID)
    }

    // swiftlint:disable:next function_parameter_count
    static func run(
        cues: [String: LocalAPNSServer.Cue] = [:],
        maxAttempts: Int = 5,
        minimumTokenInterval: TimeInterval = 20 * 60,
        providerTeamID: String = APNSProviderLiveTests.teamID,
        queueCapacity: Int = 1_000,
        maxConcurrentSends: Int = 16,
        requestTimeout: Duration = .seconds(5),
        endpoint: (baseURL: String, caPEM: String)? = nil,
        loadKeyFromFile: Bool = false,
        startProvider: Bool = true,
        stopServerFirst: Bool = false,
        _ body: @Sendable (APNSRig) async throws -> Void
    ) async throws {
        let clock = ManualClock(start: Date())
        let key = P256.Signing.PrivateKey()
        let server = try await LocalAPNSServer(
            publicKey: key.publicKey, keyID: APNSProviderLiveTests.keyID, teamID: APNSProviderLiveTests.teamID,
            topics: [APNSProviderLiveTests.topic], cues: cues, minimumTokenInterval: minimumTokenInterval,
            now: { clock.wall.now() })
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vettid-apns-\(UUID())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let keyFile = directory + "/AuthKey.p8"
        try key.pemRepresentation.write(toFile: keyFile, atomically: true, encoding: .utf8)
        var caFile = try server.writeCA(to: directory)
        if let endpoint {
            caFile = directory + "/other-ca.pem"
            try endpoint.caPEM.write(toFile: caFile, atomically: true, encoding: .utf8)
        }
        let baseURL = endpoint?.baseURL ?? server.baseURL
        let configuration = APNSConfiguration(
            keyFile: keyFile, keyID: APNSProviderLiveTests.keyID, teamID: providerTeamID,
            bundleIDs: [APNSProviderLiveTests.topic], productionURL: baseURL, sandboxURL: baseURL, caFile: caFile,
            queueCapacity: queueCapacity, maxAttempts: maxAttempts, maxConcurrentSends: maxConcurrentSends,
            requestTimeout: requestTimeout)
        let logs = InMemoryLogHandler()
        var logger = Logger(label: "apns-test", factory: { _ in logs })
        logger.logLevel = .debug
        let metrics = ServerMetrics()
        let sleeps = APNSSleepRecorder()
        let outcomes = APNSOutcomeRecorder()
        let provider: APNSProvider
        if loadKeyFromFile {
            provider = try APNSProvider(
                configuration: configuration, outcomes: outcomes, metrics: metrics, logger: logger, clock: clock.wall)
        } else {
            provider = try APNSProvider(
                configuration: configuration, key: key,
                transport: try APNSHTTPClient(configuration: configuration, logger: logger), outcomes: outcomes,
                metrics: metrics, logger: logger, clock: clock.wall, sleep: { sleeps.record($0) }, jitter: { 0.5 })
        }
        if stopServerFirst { await server.stop() }
        let rig = APNSRig(
            server: server, provider: provider, clock: clock, metrics: metrics, sleeps: sleeps, outcomes: outcomes,
            logs: logs)
        var running = startProvider ? Task { try await provider.run() } : nil
        do {
            try await body(rig)
        } catch {
            running?.cancel()
            _ = await running?.result
            await server.stop()
            throw error
        }
        // A provider never started still owns its HTTP clients: running it cancelled closes them.
        if running == nil { running = Task { try await provider.run() } }
        running?.cancel()
        try await running?.value
        await server.stop()
    }
}

/// The back-offs a provider asked for (it does not wait).
final class APNSSleepRecorder: Sendable {
    private let slept = NIOLockedValueBox<[Duration]>([])
    func record(_ duration: Duration) { slept.withLockedValue { $0.append(duration) } }
    var values: [Duration] { slept.withLockedValue { $0 } }
}

/// The outcomes a provider reported.
final class APNSOutcomeRecorder: APNSPushOutcomeHandler {
    private let received = NIOLockedValueBox<[APNSPushOutcome]>([])

    func pushFinished(_ outcome: APNSPushOutcome) async { received.withLockedValue { $0.append(outcome) } }

    /// The outcome of the push `pushID`, waiting for it at most 30 s.
    func outcome(of pushID: UUID) async throws -> APNSPushOutcome {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            if let found = received.withLockedValue({ $0.first { $0.request.pushID == pushID } }) { return found }
            try await Task.sleep(for: .milliseconds(5))
        }
        throw APNSError(.misconfigured, "no outcome within 30 s")
    }
}
