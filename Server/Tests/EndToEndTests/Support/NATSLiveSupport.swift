// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Logging
import NATSClient
import OpenAPIRuntime
import Testing
import VettIDAPI
import VettIDClient
import VettIDCore
import VettIDServer
import VettIDTestSupport

/// A real nats-server in operator mode with the live server's trust, and the live server connected to it.
struct NATSLive {
    let server: LiveServer
    let nats: LocalNATSServer

    static var isAvailable: Bool { LocalNATSServer.executable != nil }

    nonisolated(nonsending) static func with<Result>(
        tls: Bool = false, postgres: Bool = false, workers: Int = 1,
        configure: (inout ServerConfiguration) -> Void = { _ in },
        _ body: (NATSLive) async throws -> Result
    ) async throws -> Result {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("vettid-nats-e2e-\(UUID().uuidString)")
        let dataDirectory = root.appendingPathComponent("data").path
        defer { try? FileManager.default.removeItem(at: root) }
        var logger = Logger(label: "e2e-nats")
        logger.logLevel = .error
        let nats = try await LocalNATSServer.start(
            forDataDirectory: dataDirectory, directory: root.appendingPathComponent("nats").path, tls: tls,
            logger: logger)
        defer { nats.stop() }
        return try await LiveServer.withServer(postgres: postgres) { configuration in
            configuration.dataDirectory = dataDirectory
            configuration.nats.url = nats.url
            configuration.nats.caFile = nats.caFile
            configuration.nats.workerInstances = workers
            configure(&configuration)
        } _: { server in
            let live = NATSLive(server: server, nats: nats)
            try await live.waitForPublisher()
            return try await body(live)
        }
    }

    /// Waits until the server's system-account connection is up (so revocations can be pushed). The publisher
    /// retries every second; on the loaded 2-core CI machine, with the whole suite starting servers in parallel,
    /// its first connect once took more than 10 s, so the wait allows 30.
    func waitForPublisher() async throws {
        let connected = await eventually(timeout: .seconds(30)) { server.components.natsPublisher?.isConnected == true }
        try #require(connected, "the server's system-account connection to nats-server was not up within 30 s")
    }

    /// A member with NATS namespaces.
    @MainActor
    func member(_ email: String) async throws -> NATSMember {
        let auth = try await VaultLive.member(baseURL: server.baseURL, email: email)
        let account = try await auth.apiClient.perform { client in
            try await client.createNatsAccount(.init()).ok.body.json
        }
        return NATSMember(auth: auth, userGUID: account.userGuid)
    }

    /// A NATS client connected with `token` (TLS roots from the local server when it uses TLS).
    func connect(
        _ token: Components.Schemas.NatsToken, inboxPrefix: String = "_INBOX",
        reconnect: NATSReconnectPolicy = NATSReconnectPolicy(wait: .milliseconds(200))
    ) async throws -> NATSClient {
        let client = try NATSClient(
            configuration: NATSClient.Configuration(
                servers: [nats.url], auth: .jwt(token.natsJwt, seed: token.natsSeed), inboxPrefix: inboxPrefix,
                reconnect: reconnect, tls: NATSTLSConfiguration(rootCertificatesPath: nats.caFile)))
        try await client.connect()
        return client
    }
}

/// A registered member whose NATS namespaces exist.
struct NATSMember {
    let auth: AuthManager
    let userGUID: String

    @MainActor
    func token(_ type: Components.Schemas.NatsClientType = .app, deviceID: String? = nil) async throws
        -> Components.Schemas.NatsToken
    {
        try await auth.apiClient.perform { client in
            try await client.createNatsToken(body: .json(.init(clientType: type, deviceId: deviceID))).ok.body.json
        }
    }

    @MainActor
    func revoke(_ tokenID: String) async throws -> Components.Schemas.NatsTokenRevokeResponse {
        try await auth.apiClient.perform { client in
            try await client.revokeNatsToken(body: .json(.init(tokenId: tokenID))).ok.body.json
        }
    }
}

/// Starts waiting (now, before the caller acts) for the first event of `client` matching `predicate`; the task
/// returns it, or `nil` after `timeout`.
func awaitEvent(
    _ client: NATSClient, timeout: Duration = .seconds(5), where predicate: @escaping @Sendable (NATSEvent) -> Bool
) -> Task<NATSEvent?, any Error> {
    let events = client.makeEventStream()
    return Task {
        try await withThrowingTaskGroup(of: NATSEvent?.self) { group in
            group.addTask {
                for await event in events where predicate(event) { return event }
                return nil
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            let first = try await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }
}

extension NATSEvent {
    /// The error code of an `.error`, `.disconnected` or `.closed` event.
    var errorCode: NATSError.Code? {
        switch self {
        case .error(let error): error.code
        case .disconnected(let error), .closed(let error): error?.code
        default: nil
        }
    }
}
