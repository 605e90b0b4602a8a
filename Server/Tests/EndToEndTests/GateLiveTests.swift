// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import ArgumentParser
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import OpenAPIRuntime
import Testing
import VettIDAttestation
import VettIDClient
import VettIDCore
import VettIDServer
import VettIDSoftwareAttestation
import VettIDSoftwareAttestationClient

@testable import VettIDCLI

/// Notes each exchange the SDK makes (method, path, status, nonce challenge), below the SDK's middlewares.
actor LiveExchangeLog {
    struct Entry: Sendable {
        var method: String
        var path: String
        var status: Int
        var nonce: String?
    }
    private(set) var entries: [Entry] = []
    func append(_ entry: Entry) { entries.append(entry) }
}

struct LoggingLiveTransport: ClientTransport {
    let base: any ClientTransport
    let log: LiveExchangeLog

    func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (
        HTTPResponse, HTTPBody?
    ) {
        let (response, responseBody) = try await base.send(
            request, body: body, baseURL: baseURL, operationID: operationID)
        await log.append(
            .init(
                method: request.method.rawValue, path: String((request.path ?? "").prefix { $0 != "?" }),
                status: response.status.code, nonce: response.headerFields[DPoPNonceChallenge.nonceField]))
        return (response, responseBody)
    }
}

/// The SDK's `GateClient` against the real backend and a real upstream on loopback.
@Suite("Gate live", .serialized)
struct GateLiveTests {
    static let developmentToken = "gate-live-development-token-0123456789"
    static let appID = "ABCDE12345.dev.vettid.live"

    /// What the upstream answered, one line per request.
    actor UpstreamLog {
        private(set) var lines: [String] = []
        func append(_ line: String) { lines.append(line) }
    }

    /// Runs an upstream on a free loopback port that echoes method, URI and body under `/api/**`.
    static func withUpstream(_ body: @escaping @Sendable (Int) async throws -> Void) async throws {
        try await withRecordingUpstream { port, _ in try await body(port) }
    }

    static func withRecordingUpstream(_ body: @escaping @Sendable (Int, UpstreamLog) async throws -> Void) async throws
    {
        let log = UpstreamLog()
        let router = Router()
        for method in [HTTPRequest.Method.get, .post, .put, .patch, .delete] {
            router.on("/api/**", method: method) { request, _ -> Response in
                let buffer = try await request.body.collect(upTo: 1 << 20)
                let sawProof = request.headers[HTTPField.Name("DPoP")!] != nil || request.headers[.authorization] != nil
                let text =
                    "\(request.method.rawValue) \(request.uri.description) \(String(buffer: buffer)) credentials:\(sawProof)"
                await log.append(text)
                return Response(
                    status: .ok, headers: [.contentType: "text/plain"],
                    body: .init(byteBuffer: ByteBuffer(string: text)))
            }
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in try await body(try #require(client.port), log) }
    }

    @Test("the demo's Gate steps run end to end: upstream, Gate backend, register, nonce retry, token, proxy")
    @MainActor
    func gateDemo() async throws {
        let reporter = DemoReporter(format: .json)
        var logger = Logger(label: "gate-demo-test")
        logger.logLevel = .error
        let backend = try await DemoBackend.start(reporter: reporter, logger: logger)
        do {
            try await GateDemo(reporter: reporter).run(on: backend)
        } catch {
            await backend.stop()
            throw error
        }
        await backend.stop()
        #expect(reporter.failures == 0)
    }

    @Test("vettid gate request METHOD PATH --data: parsed, validated, and run against the live Gate")
    @MainActor
    func gateRequestCommand() async throws {
        #expect(throws: (any Error).self) { _ = try GateRequestCommand.parse(["FETCH NOW", "/proxy/echo/x"]) }
        #expect(throws: (any Error).self) {
            _ = try GateRequestCommand.parse(["GET", "/proxy/echo/x", "--header", "no colon"])
        }
        try await Self.withRecordingUpstream { port, upstream in
            try await LiveServer.withServer(configure: { configuration in
                configuration.gate = GateConfiguration(
                    developmentTokens: [Self.developmentToken],
                    upstreams: ["echo": GateUpstream(baseURL: "http://127.0.0.1:\(port)/api")])
            }) { server in
                let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
                    "vettid-gate-cli-\(UUID().uuidString)")
                defer { try? FileManager.default.removeItem(at: directory) }
                let arguments = [
                    "patch", "/proxy/echo/things?x=1", "--data", "payload", "--header", "X-Trace: 7",
                    "--server", server.baseURL.absoluteString, "--config-dir", directory.path,
                    "--development-token", Self.developmentToken, "--output", "json",
                ]
                let command = try GateRequestCommand.parse(arguments)
                try await command.run()
                // A second run reuses the device key kept in the profile's store.
                try await GateRequestCommand.parse(arguments).run()
                #expect(
                    await upstream.lines
                        == Array(repeating: "PATCH /api/things?x=1 payload credentials:false", count: 2))
            }
        }
    }

    static func gateClient(
        baseURL: URL, attester: any DeviceAttester, store: any SecureStore, log: LiveExchangeLog
    ) throws -> GateClient {
        let configuration = try GateClientConfiguration(
            baseURL: baseURL, teamID: "ABCDE12345", bundleID: "dev.vettid.live",
            transport: LoggingLiveTransport(base: DefaultTransport.make(), log: log))
        return GateClient(
            configuration: configuration, deviceKeyStore: SoftwareDeviceKeyStore(store: store), attester: attester,
            store: store)
    }

    @Test("software App Attest: challenge, register, token, proxied calls with any method; nonce retry; one mint")
    func softwareAttestationFlow() async throws {
        let authority = try SoftwareAttestationAuthority.generate()
        try await Self.withUpstream { port in
            try await LiveServer.withServer(configure: { configuration in
                configuration.gate = GateConfiguration(
                    appID: Self.appID, allowedEnvironments: [.development], trustSoftwareRoot: true,
                    softwareRoots: [authority.rootCertificate],
                    upstreams: ["echo": GateUpstream(baseURL: "http://127.0.0.1:\(port)/api")])
            }) { server in
                let store = InMemorySecureStore()
                let log = LiveExchangeLog()
                let attester = SoftwareDeviceAttester(
                    attester: SoftwareAttester(authority: authority, appID: Self.appID), store: store)
                let gate = try Self.gateClient(baseURL: server.baseURL, attester: attester, store: store, log: log)

                let get = try await gate.performProxyRequest(path: "/proxy/echo/items?limit=2")
                #expect(String(decoding: get.body, as: UTF8.self) == "GET /api/items?limit=2  credentials:false")
                let post = try await gate.performProxyRequest(
                    path: "/proxy/echo/items", method: .post, body: Data("hello".utf8),
                    additionalHeaders: [.contentType: "text/plain"])
                #expect(String(decoding: post.body, as: UTF8.self) == "POST /api/items hello credentials:false")
                for method in [HTTPRequest.Method.put, .patch, .delete] {
                    let response = try await gate.performProxyRequest(path: "/proxy/echo/items/1", method: method)
                    #expect(String(decoding: response.body, as: UTF8.self).hasPrefix("\(method.rawValue) /api/items/1"))
                }
                #expect(await gate.mintCount == 1)

                let entries = await log.entries
                let flow = entries.filter { !$0.path.hasPrefix("/proxy/") }
                // The first verified proof (at /attest/register) has no nonce: a use_dpop_nonce challenge, retried
                // once on the same path with success. Later proofs carry the remembered nonce (another challenge can
                // only follow a rotation of the server's nonce window, and is answered the same way).
                let challenges = entries.indices.filter { entries[$0].status == 400 || entries[$0].status == 401 }
                #expect(challenges.first.map { entries[$0].path } == "/attest/register")
                #expect(!challenges.isEmpty && challenges.count <= 2)
                for index in challenges {
                    #expect(entries[index].nonce != nil)
                    #expect(entries.indices.contains(index + 1) && entries[index + 1].path == entries[index].path)
                    #expect(entries.indices.contains(index + 1) && entries[index + 1].status < 300)
                }
                #expect(flow.filter { $0.path == "/attest/challenge" && $0.status == 201 }.count == 2)
                #expect(flow.filter { $0.path == "/attest/register" && $0.status == 201 }.count == 1)
                #expect(flow.filter { $0.path == "/token" && $0.status == 200 }.count == 1)
                #expect(entries.filter { $0.path.hasPrefix("/proxy/") }.allSatisfy { $0.status == 200 })

                // A restarted client with the same store reuses the registration.
                let restarted = try Self.gateClient(baseURL: server.baseURL, attester: attester, store: store, log: log)
                _ = try await restarted.performProxyRequest(path: "/proxy/echo/again")
                #expect(await log.entries.filter { $0.path == "/attest/register" && $0.status == 201 }.count == 1)
            }
        }
    }

    @Test("development grant: 20 concurrent calls share one mint; a wrong development token is a server error")
    func developmentGrant() async throws {
        try await Self.withUpstream { port in
            try await LiveServer.withServer(configure: { configuration in
                configuration.gate = GateConfiguration(
                    developmentTokens: [Self.developmentToken],
                    upstreams: ["echo": GateUpstream(baseURL: "http://127.0.0.1:\(port)/api")])
            }) { server in
                let store = InMemorySecureStore()
                let log = LiveExchangeLog()
                let gate = try Self.gateClient(
                    baseURL: server.baseURL, attester: DevelopmentTokenAttester(token: Self.developmentToken),
                    store: store, log: log)
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for index in 0..<20 {
                        group.addTask { _ = try await gate.performProxyRequest(path: "/proxy/echo/n/\(index)") }
                    }
                    try await group.waitForAll()
                }
                #expect(await gate.mintCount == 1)
                #expect(await log.entries.filter { $0.path == "/attest/register" }.isEmpty)

                let wrong = try Self.gateClient(
                    baseURL: server.baseURL, attester: DevelopmentTokenAttester(token: "not-the-token"),
                    store: InMemorySecureStore(), log: log)
                do throws(GateError) {
                    _ = try await wrong.performProxyRequest(path: "/proxy/echo/x")
                    Issue.record("expected the development token to be refused")
                } catch {
                    #expect(error.code == .server)
                    #expect(error.status == 400)
                    #expect(error.serverCode == .invalidGrant)
                }
            }
        }
    }
}
