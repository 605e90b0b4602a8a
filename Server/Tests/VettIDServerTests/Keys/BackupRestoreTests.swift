// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes
import HummingbirdTesting
import Logging
import Testing
import VettIDCore
import VettIDMessaging

@testable import VettIDServer

/// A backup taken while the server runs, restored into a fresh data directory: members sign in with their
/// passwords, their access tokens still verify, and enrolled devices authenticate with the packages they hold,
/// including after the at-rest and token-signing keys were rotated (the key ring is part of the backup), and the
/// member's vault secrets read back.
@Suite struct BackupRestoreTests {
    static func temporary(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("vettid-\(name)-\(UUID().uuidString)").path
    }

    /// Runs `body` against a server on the SQLite database of `dataDirectory`, as `vettid-server serve` would.
    static func withServer<Result: Sendable>(
        dataDirectory: String,
        _ body: @escaping @Sendable (any TestClientProtocol, ServerComponents) async throws -> Result
    ) async throws -> Result {
        var configuration = VaultTest.configuration()
        configuration.dataDirectory = dataDirectory
        var logger = Logger(label: "test")
        logger.logLevel = .warning
        let components = try await ServerComponents.make(configuration: configuration, logger: logger)
        do {
            let result = try await buildApplication(components: components).test(.router) { client in
                try await body(client, components)
            }
            try await components.shutdownStores()
            return result
        } catch {
            try? await components.shutdownStores()
            throw error
        }
    }

    @Test func aRestoredInstanceSignsMembersInAndAuthenticatesTheirDevices() async throws {
        let original = Self.temporary("original")
        let backup = Self.temporary("backup")
        let restored = Self.temporary("restored")
        defer { for path in [original, backup, restored] { try? FileManager.default.removeItem(atPath: path) } }
        let email = "restore-\(UUID().uuidString.prefix(6))@example.com"
        let device = GateTest.Device()

        let (package, accessToken) = try await Self.withServer(dataDirectory: original) { client, components in
            let code = try await client.invitationCode(email: email)
            let (package, _) = try await client.enroll(device, code: code)
            // A secret in the member's vault, sealed under the data key the rotation below re-wraps.
            _ = try await VaultSecretRepository(
                store: components.store, keys: components.sealingKeys, limits: .standard
            )
            .put(memberID: package.userGUID, name: "backup-pin", value: Array("7391".utf8), expectedVersion: 0, now: 1)
            // Rotate the at-rest and token-signing keys and reseal, so the restore needs the key ring too.
            let now = UnixSeconds.from(Date())
            try KeyRingFile.update(dataDirectory: original) { rings in
                rings[.atRest] = try rings[.atRest].rotated(
                    secret: .init(repeating: 1, count: 32), now: now, activationDelay: 0)
                rings[.tokenSigning] = try rings[.tokenSigning].rotated(
                    secret: .init(repeating: 2, count: 32), now: now, activationDelay: 0)
            }
            try await #require(components.keyRingReloader).reloadNow()
            #expect(
                try await AtRestResealer(store: components.store, keys: components.sealingKeys).reseal().resealed > 0)
            try KeyRingFile.update(dataDirectory: original) { rings in
                rings[.atRest] = try rings[.atRest].removing(1, now: now)
            }
            let login = try await client.post("/auth/login", ["email": email, "password": "vivid-Otter-parsley-42"])
            // The backup is taken while this server still runs.
            try await ServerBackup.write(
                configuration: components.configuration, to: backup, logger: Logger(label: "test"))
            return (package, try #require(login.json["access_token"] as? String))
        }

        // Restoring over a deployment that has keys is refused, and so is a backup whose files were altered.
        #expect(throws: ServerBackup.Failure.self) { try ServerBackup.restore(from: backup, into: original) }
        let tampered = Self.temporary("tampered")
        defer { try? FileManager.default.removeItem(atPath: tampered) }
        try FileManager.default.copyItem(atPath: backup, toPath: tampered)
        try SecretFile.write(Array(repeating: 9, count: 32), to: tampered + "/keys/master.key")
        #expect(throws: ServerBackup.Failure.self) { try ServerBackup.restore(from: tampered, into: restored) }
        #expect(!FileManager.default.fileExists(atPath: restored + "/keys/master.key"), "nothing written")

        #expect(try ServerBackup.restore(from: backup, into: restored) == "sqlite")
        try await Self.withServer(dataDirectory: restored) { client, components in
            let secret = try await VaultSecretRepository(
                store: components.store, keys: components.sealingKeys, limits: .standard
            ).get(memberID: package.userGUID, name: "backup-pin")
            #expect(secret?.value == Data("7391".utf8), "the restored key ring opens the re-wrapped data key")
            #expect(try await client.get("/auth/me", bearer: accessToken).status == .ok)
            let login = try await client.post("/auth/login", ["email": email, "password": "vivid-Otter-parsley-42"])
            #expect(login.status == .ok)
            let nonce = try await client.gateNonce(device)
            let action = try await client.actionRequest(device, package: package, nonce: nonce, counter: 1)
            #expect(action.status == .ok)
            let executed = try await client.authExecute(device, package: package, action: action.json, nonce: nonce)
            #expect(executed.status == .ok)
            #expect(executed.json["status"] as? String == "authenticated")
        }
    }
}
