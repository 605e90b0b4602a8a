// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import SQLKit
import Testing
import VettIDAttestation
import VettIDClient
import VettIDCore
import VettIDServer
import VettIDSoftwareAttestation
import VettIDSoftwareAttestationClient

/// The SDK's vault enrollment and authentication against a real server over HTTP, on SQLite and (when
/// `VETTID_TEST_DATABASE_URL` is set) PostgreSQL: issue 4 end to end.
@Suite("Vault live", .timeLimit(.minutes(2)))
struct VaultLiveTests {
    static let engines = AuthManagerLiveTests.engines
    static let appID = "ABCDE12345.dev.vettid.vaultlive"

    /// What the server holds for a credential: its row and what was spent on it.
    struct ServerView: Equatable {
        var keyVersion: Int
        var failedAttempts: Int
        var securityLevel: String
        var actions: Int
        var usedActions: Int
        var usedKeys: Int
    }

    static func view(_ server: LiveServer, credentialID: String) async throws -> ServerView {
        try await server.components.store.withDatabase { db in
            let credential = try await db.raw(
                """
                SELECT key_version, failed_attempts, security_level FROM vault_credentials
                WHERE credential_id = \(bind: credentialID)
                """
            ).first()
            guard let row = credential else { throw E2EFailure("no credential \(credentialID) on the server") }
            func count(_ table: String, used: Bool) async throws -> Int {
                let spent = used ? " AND used_at IS NOT NULL" : ""
                let query: SQLQueryString =
                    "SELECT COUNT(*) AS n FROM \(unsafeRaw: table) WHERE credential_id = \(bind: credentialID)\(unsafeRaw: spent)"
                return try await db.raw(query).first()?.decode(column: "n", as: Int.self) ?? -1
            }
            return ServerView(
                keyVersion: try row.decode(column: "key_version", as: Int.self),
                failedAttempts: try row.decode(column: "failed_attempts", as: Int.self),
                securityLevel: try row.decode(column: "security_level", as: String.self),
                actions: try await count("vault_actions", used: false),
                usedActions: try await count("vault_actions", used: true),
                usedKeys: try await count("transaction_keys", used: true)
            )
        }
    }

    @Test(
        "invited over HTTP, a device enrolls (software App Attest) and authenticates; a wrong password or tampered LAT rotates nothing",
        arguments: engines)
    func enrollAndAuthenticate(postgres: Bool) async throws {
        let authority = try SoftwareAttestationAuthority.generate()
        try await LiveServer.withServer(
            postgres: postgres,
            configure: { configuration in
                configuration.gate = GateConfiguration(
                    appID: Self.appID, allowedEnvironments: [.development], trustSoftwareRoot: true,
                    softwareRoots: [authority.rootCertificate])
            }
        ) { server in
            let member = try await VaultLive.member(baseURL: server.baseURL, email: "vault-live@example.com")
            let link = try await VaultLive.invite(member)
            #expect(link.apiOrigin == server.baseURL)

            let store = InMemorySecureStore()
            let attester = SoftwareDeviceAttester(
                attester: SoftwareAttester(authority: authority, appID: Self.appID), store: store)
            let vault = try VaultLive.device(baseURL: server.baseURL, attester: attester, store: store)

            // Enrollment: start → software attestation → password → finalize; the package is stored.
            let enrolled = try await vault.enroll(invitation: link, password: VaultLive.vaultPassword)
            #expect(enrolled.attestationFormat == .software)
            #expect(enrolled.package.keyVersion == 1)
            #expect(enrolled.package.ledgerAuthToken.version == 1)
            #expect(enrolled.package.transactionKeys.count == 19, "20 session keys, one spent on the password")
            #expect(try await vault.storedCredential() == enrolled)
            let credentialID = enrolled.package.credentialID
            // The session's keys move to the credential at finalize, the one spent on the password included.
            let enrolledView = try await Self.view(server, credentialID: credentialID)
            #expect(
                enrolledView
                    == ServerView(
                        keyVersion: 1, failedAttempts: 0, securityLevel: "software", actions: 0, usedActions: 0,
                        usedKeys: 1))

            // The right password: a rotated package (key version 2) replaces the stored one.
            let session = try await vault.authenticate(password: VaultLive.vaultPassword)
            #expect(!session.token.isEmpty)
            #expect(session.credential.keyVersion == 2)
            #expect(session.credential.ledgerAuthToken.version == 2)
            #expect(session.credential.sealedCredential != enrolled.package.sealedCredential)
            let authenticated = try #require(try await vault.storedCredential())
            #expect(authenticated.package == session.credential)
            #expect(
                try await Self.view(server, credentialID: credentialID)
                    == ServerView(
                        keyVersion: 2, failedAttempts: 0, securityLevel: "software", actions: 1, usedActions: 1,
                        usedKeys: 2))

            // A wrong password: invalid_credentials. The stored package is unchanged but for the single-use key
            // the attempt spent; the server counts one failure and rotates nothing.
            let wrong = await VaultLive.error { try await vault.authenticate(password: VaultLive.wrongPassword) }
            #expect(wrong?.code == .invalidCredentials)
            #expect(wrong?.status == 401)
            let afterWrong = try #require(try await vault.storedCredential())
            var expected = authenticated.package
            expected.transactionKeys = afterWrong.package.transactionKeys
            #expect(afterWrong.package == expected)
            #expect(afterWrong.package.transactionKeys.count == authenticated.package.transactionKeys.count - 1)
            #expect(Set(afterWrong.package.transactionKeys).isSubset(of: Set(authenticated.package.transactionKeys)))
            let wrongView = try await Self.view(server, credentialID: credentialID)
            #expect(
                wrongView
                    == ServerView(
                        keyVersion: 2, failedAttempts: 1, securityLevel: "software", actions: 2, usedActions: 2,
                        usedKeys: 3))

            // A tampered LAT on the device: lat_mismatch after the action request, before the password is sealed.
            // The server issued the action but saw no auth execute: no action or key spent, no failure, no rotation.
            var tampered = afterWrong
            let token = tampered.package.ledgerAuthToken.token
            tampered.package.ledgerAuthToken.token = String(token.dropLast()) + (token.hasSuffix("A") ? "B" : "A")
            try await vault.credentialStore.save(tampered)
            let mismatch = await VaultLive.error { try await vault.authenticate(password: VaultLive.vaultPassword) }
            #expect(mismatch?.code == .latMismatch)
            #expect(mismatch?.status == nil, "the SDK's own refusal, not a server answer")
            #expect(try await vault.storedCredential()?.package == tampered.package, "no transaction key was consumed")
            var untouched = wrongView
            untouched.actions += 1
            #expect(try await Self.view(server, credentialID: credentialID) == untouched)

            // With its real LAT back, the device authenticates again: version 3, the failure count reset.
            try await vault.credentialStore.save(afterWrong)
            let again = try await vault.authenticate(password: VaultLive.vaultPassword)
            #expect(again.credential.keyVersion == 3)
            #expect(try await vault.storedCredential()?.package == again.credential)
            let finalView = try await Self.view(server, credentialID: credentialID)
            #expect(finalView.keyVersion == 3)
            #expect(finalView.failedAttempts == 0)
            #expect(finalView.usedActions == untouched.usedActions + 1)
        }
    }
}
