// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import NIOConcurrencyHelpers
import VettIDMessaging

@testable import VettIDServer

/// The server's own `LocalNATSServer` for one worker test: an ephemeral `NATSTrust` (operator, system and
/// application account; full resolver) in a temporary directory of its own, on a free loopback port.
/// `cleanUp()` stops it and removes the directory; tests call it in `defer`.
final class WorkerTestNATS: Sendable {
    static var isAvailable: Bool { LocalNATSServer.executable != nil }

    let trust = NATSTrust.ephemeral()
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
        "vault-worker-test-\(UUID().uuidString)")
    private let server: NIOLockedValueBox<LocalNATSServer>

    /// The same across ``restart()``.
    var url: String { current.url }
    var log: String { current.log }
    private var current: LocalNATSServer { server.withLockedValue { $0 } }

    init() async throws {
        server = NIOLockedValueBox(
            try await LocalNATSServer.start(
                trust: trust,
                applicationAccountJWT: try trust.applicationAccountJWT(
                    revocations: [:], issuedAt: Int64(Date().timeIntervalSince1970)),
                directory: directory.path))
    }

    /// A user of the application account with exactly `permissions` and a fresh user NKey.
    func user(_ permissions: NatsPermissionSet, name: String = "user") throws -> (jwt: String, seed: String) {
        let user = try trust.userCredentials(
            name: name, permissions: permissions, issuedAt: Int64(Date().timeIntervalSince1970), expiresAt: nil)
        return (user.jwt, user.seed)
    }

    /// Stops nats-server and starts it again on the same port with the same configuration.
    func restart() async throws {
        let restarted = try await current.restarted()
        server.withLockedValue { $0 = restarted }
    }

    func cleanUp() {
        current.stop()
        try? FileManager.default.removeItem(at: directory)
    }
}
