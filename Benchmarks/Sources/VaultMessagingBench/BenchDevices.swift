// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import BenchSupport
import Foundation
import Logging
import VettIDAPI
import VettIDClient
import VettIDMessaging
import VettIDServer

/// A device enrolled through the server's HTTP API: the SDK's `VaultService` with its software device key and
/// credential in `store`, authenticated, with the member's NATS account created.
struct EnrolledDevice: Sendable {
    let vault: VaultService
    let store: InMemorySecureStore
    /// The member's namespaces.
    let namespace: VaultNamespace

    /// The enrolled device key (kept in ``store``): what signs the handshake inits.
    var keyStore: SoftwareDeviceKeyStore { SoftwareDeviceKeyStore(store: store) }
}

/// The benchmark's server and the devices its sealed paths need.
///
/// The vault answers a sealed-session handshake only from an enrolled, unrevoked device of the member
/// (`unknown_device` otherwise), so each sealed app is a device enrolled as an app enrolls one: a new member
/// registers and invites, the device enrolls with development-token attestation and its vault password,
/// authenticates, and creates the member's NATS account. Nothing is written into the store directly.
enum BenchDevices {
    /// The development attestation token the benchmark's servers accept.
    static let developmentToken = "vettid-bench-messaging-development-token-2026"
    static let memberPassword = "vivid-Otter-parsley-42"
    static let vaultPassword = "Quartz-lantern-Meadow-93"

    /// Starts the server with `workers` vault worker instances and a real nats-server in operator mode (this
    /// server's trust), development-token attestation, and the per-address limits of login, registration,
    /// enrollment and vault authentication raised: the setup enrolls every app's device from one address within a
    /// minute. What is measured goes over NATS, where none of these limits applies.
    static func startServer(workers: Int, logger: Logger) async throws -> LoopbackServer {
        try await LoopbackServer.start(label: "vettid-bench-messaging", logger: logger, nats: .plain) {
            $0.nats.workerInstances = workers
            $0.gate.developmentTokens = [developmentToken]
            let unlimited = RateLimiter.Rule(capacity: 1_000_000, window: .seconds(60))
            $0.limits.perIP = unlimited
            $0.vault.enrollmentStartsPerIP = unlimited
            $0.vault.actionsPerCredential = unlimited
        }
    }

    /// Enrolls a device of a new member on `server` (see ``BenchDevices``).
    @MainActor
    static func enroll(on server: LoopbackServer, logger: Logger) async throws -> EnrolledDevice {
        let member = AuthManager(
            configuration: try .init(baseURL: server.baseURL, store: InMemorySecureStore(), logger: logger))
        try await member.register(
            email: "bench-messaging-\(UUID().uuidString.prefix(13).lowercased())@example.com",
            password: memberPassword)
        let invitation = try await member.apiClient.perform { client in
            try await client.createInvitation(body: .json(.init(expiresIn: 600, label: "bench app"))).created.body.json
        }
        let store = InMemorySecureStore()
        let vault = VaultService(
            configuration: try VaultServiceConfiguration(
                baseURL: server.baseURL, deviceType: .cli, deviceID: "bench-app", logger: logger),
            deviceKeyStore: SoftwareDeviceKeyStore(store: store),
            attester: DevelopmentTokenAttester(token: developmentToken),
            store: store)
        _ = try await vault.enroll(
            invitation: try EnrollmentInvitationLink(parsing: invitation.qrPayload), password: vaultPassword)
        _ = try await vault.authenticate(password: vaultPassword)
        let account = try await vault.createNatsAccount()
        return EnrolledDevice(vault: vault, store: store, namespace: try VaultNamespace(userGUID: account.userGUID))
    }

    /// Enrolls `count` devices of new members, one after the other.
    @MainActor
    static func enroll(_ count: Int, on server: LoopbackServer, logger: Logger) async throws -> [EnrolledDevice] {
        var devices: [EnrolledDevice] = []
        for _ in 0..<count { devices.append(try await enroll(on: server, logger: logger)) }
        return devices
    }
}
