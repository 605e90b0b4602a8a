// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import OpenAPIRuntime
import Testing
import VettIDClient
import VettIDCore
import VettIDCrypto

/// Issue 4, crash safety: the real `vettid server` process killed with SIGKILL between any two steps of vault
/// enrollment and authentication, then started again on the same data directory (SQLite) or database
/// (PostgreSQL, when `VETTID_TEST_DATABASE_URL` is set). Nothing committed is lost, the same SDK objects
/// continue, a repeated step is answered as before, and a half-finished enrollment can never authenticate.
@Suite(
    "Vault crash safety", .enabled(if: CLITests.vettid != nil, "the vettid executable was not built"),
    .timeLimit(.minutes(2)))
struct VaultCrashTests {
    static let engines = AuthManagerLiveTests.engines
    static let developmentToken = "vault-crash-development-token-0123456789"

    /// Where the server is killed and started again.
    enum Boundary: String, CaseIterable, Sendable {
        case afterStart, afterAttestation, afterPassword, afterFinalize, afterActionRequest
    }

    /// Runs `body` against a fresh `vettid server` process with fast Argon2, the development attestation token
    /// and generous rate limits, and a signed-in member who invites devices.
    static func withServer(
        postgres: Bool, _ body: (ServerProcess, AuthManager) async throws -> Void
    ) async throws {
        let executable = try #require(CLITests.vettid)
        var databaseURL: String?
        if postgres {
            let url = try #require(ProcessInfo.processInfo.environment["VETTID_TEST_DATABASE_URL"])
            databaseURL = try await PostgresSchema.create(baseURL: url)
        }
        let server = try ServerProcess(
            executable: executable, databaseURL: databaseURL,
            environment: [
                "VETTID_ARGON2_MEMORY_KIB": "1024", "VETTID_ARGON2_ITERATIONS": "1", "VETTID_ARGON2_PARALLELISM": "1",
                "VETTID_GATE_DEVELOPMENT_TOKENS": developmentToken, "VETTID_LOG_LEVEL": "error",
                "VETTID_RATE_LIMIT_IP_PER_MINUTE": "1000", "VETTID_RATE_LIMIT_ENROLL_PER_MINUTE": "1000",
                "VETTID_RATE_LIMIT_ACTION_PER_MINUTE": "1000",
            ])
        do {
            try await server.start()
            let member = try await VaultLive.member(
                baseURL: server.baseURL, email: "crash-\(postgres ? "pg" : "sqlite")@example.com")
            try await body(server, member)
            await server.stop()
        } catch {
            await server.stop()
            throw error
        }
    }

    static func device(_ server: ServerProcess, store: any SecureStore, transport: (any ClientTransport)? = nil) throws
        -> VaultService
    {
        try VaultLive.device(
            baseURL: server.baseURL, attester: DevelopmentTokenAttester(token: developmentToken), store: store,
            transport: transport)
    }

    @Test(
        "killed between any two steps, the same enrollment and authenticator continue and the device authenticates",
        arguments: engines)
    func killedBetweenAnyTwoSteps(postgres: Bool) async throws {
        try await Self.withServer(postgres: postgres) { server, member in
            for boundary in Boundary.allCases {
                let link = try await VaultLive.invite(member)
                let store = InMemorySecureStore()
                let vault = try Self.device(server, store: store)
                func crash(at point: Boundary) async throws {
                    if point == boundary { try await server.restart() }
                }

                let enrollment = vault.enrollment()
                let session = try await enrollment.start(link)
                try await crash(at: .afterStart)
                try await enrollment.attest()
                try await crash(at: .afterAttestation)
                try await enrollment.setPassword(VaultLive.vaultPassword)
                try await crash(at: .afterPassword)
                let credential = try await enrollment.finalize()
                #expect(credential.package.userGUID == session.userGUID, "\(boundary)")
                #expect(credential.package.keyVersion == 1, "\(boundary)")
                try await crash(at: .afterFinalize)

                let authenticator = vault.authenticator()
                let action = try await authenticator.requestAction()
                try await crash(at: .afterActionRequest)
                let authenticated = try await authenticator.execute(action, password: VaultLive.vaultPassword)
                #expect(authenticated.credential.keyVersion == 2, "\(boundary)")

                // The app restarted too: a new service over the same device store authenticates again.
                let restarted = try Self.device(server, store: store)
                #expect(
                    try await restarted.authenticate(password: VaultLive.vaultPassword).credential.keyVersion == 3,
                    "\(boundary)")
            }
            #expect(await server.starts == 1 + Boundary.allCases.count)
        }
    }

    @Test(
        "an answer lost to a hard stop after commit: the repeated step (start, attestation, password, finalize) is answered as before",
        arguments: engines)
    func lostAnswersAreRepeatedIdempotently(postgres: Bool) async throws {
        try await Self.withServer(postgres: postgres) { server, member in
            let link = try await VaultLive.invite(member)
            let transport = ResponseLosingTransport(base: DefaultTransport.make())
            let vault = try Self.device(server, store: InMemorySecureStore(), transport: transport)
            let enrollment = vault.enrollment()

            /// Runs `step` with its answer lost as the server dies, checks it failed, and starts the server again.
            func losingTheAnswer(to operationID: String, _ step: () async throws -> Void) async throws {
                await transport.trap.arm(operationID) { await server.kill() }
                let lost = await VaultLive.error(step)
                #expect(lost?.code == .networkError, "\(operationID): \(String(describing: lost))")
                try await server.start()
            }

            // start: the invitation was redeemed; the same device key resumes the same session.
            try await losingTheAnswer(to: "enrollStart") { try await enrollment.start(link) }
            #expect(await enrollment.phase == .notStarted)
            let session = try await enrollment.start(link)
            let repeated = try await vault.enrollStart(invitationCode: link.code)
            #expect(repeated.id == session.id)
            #expect(repeated.passwordKeyID == session.passwordKeyID)
            #expect(Set(repeated.transactionKeys) == Set(session.transactionKeys))
            let otherDevice = try Self.device(server, store: InMemorySecureStore())
            let stolen = await VaultLive.error { try await otherDevice.enrollStart(invitationCode: link.code) }
            #expect(stolen?.code == .invitationUsed)
            #expect(stolen?.status == 409)

            // attestation: the same format again is accepted.
            try await losingTheAnswer(to: "enrollAttestation") { try await enrollment.attest() }
            #expect(await enrollment.phase == .awaitingAttestation)
            try await enrollment.attest()
            #expect(await enrollment.phase == .awaitingPassword)

            // password: sent again to another unused key, it verifies against the stored hash.
            try await losingTheAnswer(to: "enrollPassword") {
                try await enrollment.setPassword(VaultLive.vaultPassword)
            }
            #expect(await enrollment.phase == .awaitingPassword)
            try await enrollment.setPassword(VaultLive.vaultPassword)
            #expect(await enrollment.phase == .awaitingFinalize)
            // The enrollment used the password key (the lost attempt), then the first other key of the session.
            let retried = try #require(session.transactionKeys.first { $0.keyID != session.passwordKeyID })
            let spare = session.transactionKeys.filter {
                $0.keyID != session.passwordKeyID && $0.keyID != retried.keyID
            }
            .suffix(2)
            let same = try spare.first!.sealPassword(
                VaultLive.vaultPassword, purpose: .enrollmentPassword, contextID: session.id)
            #expect(try await vault.setPassword(same, session: session) == .finalize)
            let different = try spare.last!.sealPassword(
                VaultLive.wrongPassword, purpose: .enrollmentPassword, contextID: session.id)
            let refused = await VaultLive.error { try await vault.setPassword(different, session: session) }
            #expect(refused?.code == .stepOutOfOrder)
            #expect(refused?.status == 409)

            // finalize: the same package again, until the credential is used.
            try await losingTheAnswer(to: "enrollFinalize") { try await enrollment.finalize() }
            #expect(await enrollment.phase == .awaitingFinalize)
            #expect(try await vault.storedCredential() == nil)
            let credential = try await enrollment.finalize()
            #expect(try await vault.finalize(session: session) == credential.package)
            try await server.restart()
            #expect(try await vault.finalize(session: session) == credential.package)

            // action request: a new action replaces the lost one (its reserved key is simply never offered again).
            try await losingTheAnswer(to: "actionRequest") { _ = try await vault.authenticator().requestAction() }
            let authenticated = try await vault.authenticate(password: VaultLive.vaultPassword)
            #expect(authenticated.credential.keyVersion == 2)
            let late = await VaultLive.error { try await vault.finalize(session: session) }
            #expect(late?.code == .stepOutOfOrder, "the credential moved on: the old package is not handed out again")
            #expect(await server.starts == 7)
        }
    }

    @Test(
        "an answer to auth execute lost after the rotation committed: the device can still authenticate",
        arguments: engines)
    func aLostAuthExecuteAnswer(postgres: Bool) async throws {
        try await Self.withServer(postgres: postgres) { server, member in
            let transport = ResponseLosingTransport(base: DefaultTransport.make())
            let vault = try Self.device(server, store: InMemorySecureStore(), transport: transport)
            let enrolled = try await vault.enroll(
                invitation: try await VaultLive.invite(member), password: VaultLive.vaultPassword)
            await transport.trap.arm("authExecute") { await server.kill() }
            let lost = await VaultLive.error { try await vault.authenticate(password: VaultLive.vaultPassword) }
            #expect(lost?.code == .networkError)
            try await server.start()
            // The server committed version 2; the device still holds version 1 (minus the key it spent).
            let kept = try #require(try await vault.storedCredential())
            #expect(kept.package.keyVersion == enrolled.package.keyVersion)
            // The next authentication first repeats the lost execute (same action, token and envelope) and gets the
            // package the server rotated to, then authenticates with the password just typed.
            let recovered = try await vault.authenticate(password: VaultLive.vaultPassword)
            #expect(recovered.credential.keyVersion == enrolled.package.keyVersion + 2)
            #expect(await vault.credentialStore.pendingExecution() == nil)
        }
    }

    @Test(
        "killed after the password, never finalized: no credential on the device or the server",
        arguments: engines)
    func aHalfFinishedEnrollmentNeverAuthenticates(postgres: Bool) async throws {
        try await Self.withServer(postgres: postgres) { server, member in
            let store = InMemorySecureStore()
            let vault = try Self.device(server, store: store)
            let enrollment = vault.enrollment()
            let session = try await enrollment.start(try await VaultLive.invite(member))
            try await enrollment.attest()
            try await enrollment.setPassword(VaultLive.vaultPassword)
            try await server.restart()

            #expect(try await vault.storedCredential() == nil)
            let local = await VaultLive.error { try await vault.authenticate(password: VaultLive.vaultPassword) }
            #expect(local?.code == .notEnrolled)
            #expect(local?.status == nil)
            // Whatever id the device names (the session's, a key's, a made-up one), there is no credential to act on.
            let guesses = [session.id, session.passwordKeyID, "cr_" + Base64URL.encode(Array(repeating: 7, count: 16))]
            for credentialID in guesses {
                let refused = await VaultLive.error {
                    try await vault.actionRequest(
                        userGUID: session.userGUID, credentialID: credentialID, assertion: nil)
                }
                #expect(refused?.status == 404, "\(credentialID): \(String(describing: refused))")
            }

            // The device starts over cleanly with a new invitation.
            let credential = try await vault.enroll(
                invitation: try await VaultLive.invite(member), password: VaultLive.vaultPassword)
            #expect(credential.package.userGUID == session.userGUID)
            #expect(try await vault.authenticate(password: VaultLive.vaultPassword).credential.keyVersion == 2)
        }
    }
}
