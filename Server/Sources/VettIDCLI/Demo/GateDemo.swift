// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import OpenAPIRuntime
import ServiceLifecycle
import VettIDAttestation
import VettIDClient
import VettIDCore
import VettIDServer
import VettIDSoftwareAttestation
import VettIDSoftwareAttestationClient

/// The demo's Gate section: on the backend whose Gate proxies to the local upstream (a tiny Hummingbird app on
/// loopback, ``DemoUpstream``) and trusts the demo's software App Attest root, the SDK's `GateClient` walks
/// challenge, register, token, proxied calls and a DPoP nonce retry.
@MainActor
struct GateDemo {
    let reporter: DemoReporter

    /// Runs the Gate steps on the demo's backend.
    func run(on backend: DemoBackend) async throws {
        reporter.section("gate proxy")
        try await walk(
            server: backend.server, authority: backend.authority, appID: DemoBackend.appID,
            developmentToken: backend.developmentToken)
    }

    private func walk(
        server: LoopbackServer, authority: SoftwareAttestationAuthority, appID: String, developmentToken: String
    ) async throws {
        let recorder = ExchangeRecorder()
        let transport = RecordingTransport(base: DefaultTransport.make(), recorder: recorder)
        let store = InMemorySecureStore()
        var sdkLogger = Logger(label: "vettid-gate") { StreamLogHandler.standardError(label: $0) }
        sdkLogger.logLevel = .error
        let parts = appID.split(separator: ".", maxSplits: 1).map(String.init)
        let configuration = try GateClientConfiguration(
            baseURL: server.baseURL, teamID: parts[0], bundleID: parts[1], logLevel: .error, logger: sdkLogger,
            transport: transport)
        let attester = SoftwareDeviceAttester(
            attester: SoftwareAttester(authority: authority, appID: appID), store: store)
        let gate = GateClient(
            configuration: configuration, deviceKeyStore: SoftwareDeviceKeyStore(store: store), attester: attester,
            store: store)

        try await reporter.step("challenge + register") {
            try await gate.registerDevice()
            let exchanges = await recorder.exchanges
            let calls = exchanges.map { "\($0.method) \($0.path) → \($0.status)" }.joined(separator: ", ")
            return ((), "software App Attest object bound to the device key: \(calls)")
        }
        try await reporter.step("DPoP nonce retry") {
            let exchanges = await recorder.exchanges
            guard let challenged = exchanges.firstIndex(where: { $0.status == 400 && $0.nonceChallenge }),
                exchanges.indices.contains(challenged + 1), exchanges[challenged + 1].status < 300
            else { throw DemoFailure("no use_dpop_nonce challenge was answered by a retry") }
            let path = exchanges[challenged].path
            return (
                (),
                "first proof without nonce → 400 use_dpop_nonce on \(path); retried once with the DPoP-Nonce → \(exchanges[challenged + 1].status); nonce remembered per origin"
            )
        }
        await recorder.reset()
        let token = try await reporter.step("token") {
            let token = try await gate.accessToken()
            let calls = await recorder.exchanges.map { "\($0.method) \($0.path) → \($0.status)" }.joined(
                separator: ", ")
            return (
                token,
                "fresh challenge + assertion → token_type DPoP, expires in \(Int(token.expiresAt.timeIntervalSinceNow.rounded())) s (\(calls))"
            )
        }
        _ = token
        await recorder.reset()
        try await reporter.step("proxied call") {
            let response = try await gate.performProxyRequest(
                path: "/proxy/demo/greet?lang=en", method: .post, body: Data(#"{"name":"vettid"}"#.utf8),
                additionalHeaders: [.contentType: "application/json"])
            let text = String(decoding: response.body, as: UTF8.self)
            return (
                (), "POST /proxy/demo/greet with Authorization: DPoP + proof (ath) → \(response.status.code) \(text)"
            )
        }
        try await reporter.step("single-flight token") {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<20 {
                    group.addTask { _ = try await gate.performProxyRequest(path: "/proxy/demo/item/\(index)") }
                }
                try await group.waitForAll()
            }
            return ((), "20 concurrent proxied calls, \(await gate.mintCount) token mint in total")
        }
        try await reporter.step("development grant") {
            let devStore = InMemorySecureStore()
            let devGate = GateClient(
                configuration: configuration, deviceKeyStore: SoftwareDeviceKeyStore(store: devStore),
                attester: DevelopmentTokenAttester(token: developmentToken), store: devStore)
            let response = try await devGate.performProxyRequest(path: "/proxy/demo/status", method: .get)
            return ((), "development token → DPoP token → GET /proxy/demo/status → \(response.status.code)")
        }
    }
}

/// The upstream the demo's Gate proxies to: answers every method under `/api/**` with what it received.
struct DemoUpstream: Sendable {
    let baseURL: URL
    let group: ServiceGroup
    let task: Task<Void, any Error>

    static func start() async throws -> DemoUpstream {
        let router = Router()
        for method in [HTTPRequest.Method.get, .post, .put, .patch, .delete] {
            router.on("/api/**", method: method) { request, _ -> Response in
                let body = try await request.body.collect(upTo: 1 << 20)
                let text =
                    #"{"upstream":"demo","method":"\#(request.method.rawValue)","uri":"\#(request.uri.description)","bytes":\#(body.readableBytes)}"#
                return Response(
                    status: .ok, headers: [.contentType: "application/json"],
                    body: .init(byteBuffer: ByteBuffer(string: text)))
            }
        }
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        var logger = Logger(label: "demo-upstream")
        logger.logLevel = .error
        let app = Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                continuation.yield(channel.localAddress?.port ?? 0)
                continuation.finish()
            },
            logger: logger
        )
        // Stopped by a graceful shutdown, not by cancelling: cancelling makes Hummingbird log an error line.
        let group = ServiceGroup(
            configuration: .init(services: [.init(service: app)], gracefulShutdownSignals: [], logger: logger))
        let task = Task { try await group.run() }
        guard let port = await ports.first(where: { _ in true }), port > 0 else {
            await group.triggerGracefulShutdown()
            throw CLIFailure(code: "upstream_not_started", message: "the demo upstream did not start")
        }
        return DemoUpstream(baseURL: URL(string: "http://127.0.0.1:\(port)")!, group: group, task: task)
    }

    func stop() async {
        await group.triggerGracefulShutdown()
        _ = try? await task.value
    }
}

/// One HTTP exchange the demo's Gate client made (no header values, no bodies: they carry tokens and proofs).
struct RecordedExchange: Sendable {
    var method: String
    var path: String
    var status: Int
    var nonceChallenge: Bool
}

actor ExchangeRecorder {
    private(set) var exchanges: [RecordedExchange] = []
    func record(_ exchange: RecordedExchange) { exchanges.append(exchange) }
    func reset() { exchanges.removeAll() }
}

/// A transport that notes method, path (without query), status and whether the answer was a nonce challenge.
struct RecordingTransport: ClientTransport {
    let base: any ClientTransport
    let recorder: ExchangeRecorder

    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (
        HTTPResponse, HTTPBody?
    ) {
        let (response, responseBody) = try await base.send(
            request, body: body, baseURL: baseURL, operationID: operationID)
        let path = String((request.path ?? "").prefix { $0 != "?" })
        let challenged =
            response.headerFields[DPoPNonceChallenge.nonceField] != nil
            && (response.status.code == 400 || response.status.code == 401)
        await recorder.record(
            .init(method: request.method.rawValue, path: path, status: response.status.code, nonceChallenge: challenged)
        )
        return (response, responseBody)
    }
}
