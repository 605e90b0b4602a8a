// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import BenchSupport
import Foundation
import NATSClient
import VettIDCrypto
import VettIDMessaging
import VettIDServer

/// NATS connections for the benchmark, with credentials minted directly by the server's trust (the HTTP token
/// endpoint is not what is measured).
struct BenchConnections {
    let server: LoopbackServer

    var url: String { server.nats?.url ?? "" }

    /// An app of the member of `namespace`: the exact app permissions, inbox in the member's `forApp` space. The
    /// member is an enrolled one (``BenchDevices``): the vault writes every handler call to the member's access log,
    /// and seals sessions only for its devices.
    func app(in namespace: VaultNamespace) async throws -> NATSClient {
        let credentials = try server.components.natsTrust.userCredentials(
            name: "bench-app", permissions: .forClient(.app, in: namespace), issuedAt: now, expiresAt: now + 3600)
        return try await connect(credentials, inboxPrefix: namespace.appInboxPrefix)
    }

    /// A raw peer: a client allowed `bench.raw.>` and `BenchSpace.>`, outside the vault spaces (so no worker sees
    /// its traffic), with its inbox under `inboxPrefix` (default `bench.raw.inbox.{name}`).
    func raw(name: String, inboxPrefix: String? = nil) async throws -> NATSClient {
        let spaces = ["bench.raw.>", "\(Self.vaultShapedRoot).>"]
        let credentials = try server.components.natsTrust.userCredentials(
            name: name, permissions: NatsPermissionSet(publish: spaces, subscribe: spaces),
            issuedAt: now, expiresAt: now + 3600)
        return try await connect(credentials, inboxPrefix: inboxPrefix ?? "bench.raw.inbox.\(name)")
    }

    /// The root of the raw peer's vault-shaped subjects: as long as `OwnerSpace`, so `BenchSpace.{guid}.forVault.…`
    /// and `….forApp.inbox.…` have the lengths of the app's subjects.
    static let vaultShapedRoot = "BenchSpace"

    private var now: Int64 { Int64(Date().timeIntervalSince1970) }

    private func connect(_ credentials: NATSUserCredentials, inboxPrefix: String) async throws -> NATSClient {
        let client = try NATSClient(
            configuration: NATSClient.Configuration(
                servers: [url], auth: .jwt(credentials.jwt, seed: credentials.seed), requestTimeout: .seconds(10),
                inboxPrefix: inboxPrefix))
        try await client.connect()
        return client
    }
}
