// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes
import Testing
import VettIDCore
import VettIDCrypto

@testable import VettIDClient

@Suite("Vault authentication")
struct VaultAuthenticatorTests {
    @Test(
        "authenticates: action token as DPoP with ath, password sealed to use_key_id for the action, package replaced")
    func authenticates() async throws {
        let fixture = try await VaultFixture.make(.development)
        let enrolled = try await fixture.enroll()
        let session = try await fixture.service.authenticate(password: VaultFixture.password)

        #expect(session.token == "vault-session-1")
        let action = try #require(await fixture.requests("/vault/action/request").last)
        #expect(action.headers[.authorization] == nil)
        let actionBody = try fixture.json(action)
        #expect(actionBody["assertion"] == nil)
        #expect(actionBody["user_guid"] as? String == "user-1")
        let execute = try #require(await fixture.requests("/vault/auth/execute").first)
        #expect(execute.headers[.authorization] == "DPoP action-token-5")
        let claims = try vaultProofClaims(try #require(execute.headers[dpopField]))
        #expect(claims["ath"] as? String == DPoPProofBuilder.accessTokenHash("action-token-5"))
        let executeBody = try fixture.json(execute)
        #expect(executeBody["sealed_credential"] as? String == enrolled.package.sealedCredential)
        #expect(executeBody["key_version"] as? Int == 1)
        #expect(!String(decoding: execute.body, as: UTF8.self).contains(VaultFixture.password))

        // The server opened the envelope with the action's context.
        let envelope = try #require(await fixture.server.receivedEnvelopes.last)
        #expect(
            envelope.context
                == TransactionKeyContext(purpose: .authenticationPassword, contextID: "action-5", keyID: "tk-2"))
        #expect(await fixture.server.openedPasswords.last == VaultFixture.password)

        // The rotated package replaced the stored one.
        let stored = try #require(try await fixture.service.storedCredential())
        #expect(stored.package == session.credential)
        #expect(stored.package.keyVersion == 2)
        #expect(stored.package.ledgerAuthToken.version == 2)
        #expect(!stored.package.transactionKeys.contains { $0.keyID == "tk-2" })
        #expect(stored.package.transactionKeys.map(\.keyID) == ["tk-3", "tk-4", "tk-6", "tk-7"])
        #expect(stored.attestationFormat == .development)

        // A second authentication uses the new package and LAT.
        let again = try await fixture.service.authenticate(password: VaultFixture.password)
        #expect(again.credential.keyVersion == 3)
    }

    @Test("a LAT mismatch stops before the password is sealed or sent, and keeps the stored package")
    func latMismatchSendsNothing() async throws {
        for (latID, token, version) in [("lat-cred-1", "AAAA", 1), ("lat-other", "", 1), ("lat-cred-1", "", 2)] {
            let fixture = try await VaultFixture.make(.development)
            let enrolled = try await fixture.enroll()
            let realToken = await fixture.server.latToken(version: 1)
            await fixture.server.set(forgedLAT: latID, token: token.isEmpty ? realToken : token, version: version)
            let error = await captureError {
                _ = try await fixture.service.authenticate(password: VaultFixture.password)
            }
            #expect(error?.code == .latMismatch)
            #expect(await fixture.requests("/vault/auth/execute").isEmpty)
            #expect(await fixture.server.openedPasswords.count == 1)  // only the enrollment's
            #expect(try await fixture.service.storedCredential() == enrolled)
        }
    }

    @Test("execute re-checks the LAT of an action it is handed")
    func executeRechecksLAT() async throws {
        let fixture = try await VaultFixture.make(.development)
        let enrolled = try await fixture.enroll()
        let forged = VaultAction(
            id: "action-x",
            token: "t",
            expiresAt: Date(),
            ledgerAuthToken: LedgerAuthToken(latID: "lat-cred-1", token: "forged", version: 1),
            useKeyID: "tk-2",
            transactionKey: enrolled.package.transactionKeys[0]
        )
        let error = await captureError {
            _ = try await fixture.service.authenticator().execute(forged, password: VaultFixture.password)
        }
        #expect(error?.code == .latMismatch)
        #expect(await fixture.requests("/vault/auth/execute").isEmpty)
    }

    @Test("a wrong password is invalid_credentials; the used key is gone from the store, the package otherwise kept")
    func wrongPassword() async throws {
        let fixture = try await VaultFixture.make(.development)
        let enrolled = try await fixture.enroll()
        let error = await captureError {
            _ = try await fixture.service.authenticate(password: "not-the-password-at-all")
        }
        #expect(error?.code == .invalidCredentials)
        #expect(error?.status == 401)
        let stored = try #require(try await fixture.service.storedCredential())
        #expect(stored.package.transactionKeys.map(\.keyID) == ["tk-3", "tk-4"])
        #expect(stored.package.ledgerAuthToken == enrolled.package.ledgerAuthToken)
        #expect(stored.package.keyVersion == 1)
    }

    @Test("409 stale_credential and 410 session_expired keep their codes")
    func mapsServerErrors() async throws {
        let fixture = try await VaultFixture.make(.development)
        try await fixture.enroll()
        await fixture.server.fail("/vault/auth/execute", status: .conflict, code: "stale_credential")
        let stale = await captureError { _ = try await fixture.service.authenticate(password: VaultFixture.password) }
        #expect(stale?.code == .staleCredential)
        #expect(stale?.status == 409)
        let second = try await VaultFixture.make(.development)
        try await second.enroll()
        await second.server.fail("/vault/auth/execute", status: .gone, code: "session_expired")
        let expired = await captureError { _ = try await second.service.authenticate(password: VaultFixture.password) }
        #expect(expired?.code == .sessionExpired)
        #expect(expired?.status == 410)
    }

    @Test("without a stored credential: not_enrolled, nothing sent")
    func notEnrolled() async throws {
        let fixture = try await VaultFixture.make(.development)
        let error = await captureError { _ = try await fixture.service.authenticate(password: VaultFixture.password) }
        #expect(error?.code == .notEnrolled)
        #expect(await fixture.transport.log.requests.isEmpty)
    }

    @Test("without unused transaction keys: no_transaction_key, nothing sent")
    func noTransactionKey() async throws {
        let fixture = try await VaultFixture.make(.development)
        var credential = try await fixture.enroll()
        credential.package.transactionKeys = []
        try await fixture.service.credentialStore.save(credential)
        let before = await fixture.transport.log.requests.count
        let error = await captureError { _ = try await fixture.service.authenticate(password: VaultFixture.password) }
        #expect(error?.code == .noTransactionKey)
        #expect(await fixture.transport.log.requests.count == before)
    }

    @Test("a device that attested a key sends an assertion over client_data ‖ jkt; the server verifies it")
    func sendsAssertionForAttestedKey() async throws {
        let fixture = try await VaultFixture.make(.software)
        let credential = try await fixture.enroll()
        #expect(credential.hasAttestedKey)
        _ = try await fixture.service.authenticate(password: VaultFixture.password)
        let body = try fixture.json(try #require(await fixture.requests("/vault/action/request").last))
        #expect(body["assertion"] is String)
        let clientDataText = try #require(body["client_data"] as? String)
        let clientData = try #require(Base64URL.decode(clientDataText))
        let fields = try #require(try JSONSerialization.jsonObject(with: Data(clientData)) as? [String: Any])
        #expect(fields["action"] as? String == "authenticate")
        #expect(fields["credential_id"] as? String == "cred-1")
        let nonce = try #require(fields["nonce"] as? String)
        #expect(Base64URL.decode(nonce)?.count == 32)
        #expect(await fixture.server.assertionsVerified == 1)

        // A second action needs a new assertion (the counter increases).
        _ = try await fixture.service.authenticate(password: VaultFixture.password)
        #expect(await fixture.server.assertionsVerified == 2)
    }

    @Test("a development-token enrollment sends no assertion")
    func noAssertionForDevelopment() async throws {
        let fixture = try await VaultFixture.make(.development)
        let credential = try await fixture.enroll()
        #expect(!credential.hasAttestedKey)
        _ = try await fixture.service.authenticate(password: VaultFixture.password)
        let body = try fixture.json(try #require(await fixture.requests("/vault/action/request").last))
        #expect(body["assertion"] == nil)
        #expect(body["client_data"] == nil)
    }
}
