// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing
import VettIDCore
import VettIDCrypto

@testable import VettIDClient

/// Scripted answers per path, in order (unit tests only); an unscripted request gets a 500.
actor ScriptedVaultAnswers {
    private var answers: [String: [(HTTPResponse.Status, String)]] = [:]
    /// A token always answered with 401 `invalid_token`, before any scripted answer.
    private var rejectedToken: String?

    func reject(token: String) { rejectedToken = token }

    func add(_ path: String, _ status: HTTPResponse.Status, _ json: String) {
        answers[path, default: []].append((status, json))
    }

    func next(_ request: RecordedRequest) -> (HTTPResponse, HTTPBody?) {
        let path = String(request.path.prefix { $0 != "?" })
        if let rejectedToken, request.headers[.authorization] == "DPoP \(rejectedToken)" {
            return errorResponse(.unauthorized, code: "invalid_token")
        }
        guard var queue = answers[path], !queue.isEmpty else {
            return errorResponse(.internalServerError, code: "internal_error")
        }
        let (status, json) = queue.removeFirst()
        answers[path] = queue
        return jsonResponse(status, json)
    }
}

/// Counts re-authentications and hands out `session-2`, `session-3`, … (unit tests only).
actor ReauthenticationCounter {
    private(set) var calls = 0
    var failure: APIError?

    func fail(with error: APIError) { failure = error }

    func next() throws -> VaultSession {
        calls += 1
        if let failure { throw failure }
        return VaultSession(
            token: "session-\(calls + 1)", expiresAt: Date().addingTimeInterval(900), credential: sampleStatusPackage())
    }
}

func sampleStatusPackage(keys: [TransactionKey] = []) -> CredentialPackage {
    CredentialPackage(
        userGUID: "user-1",
        credentialID: "cred-1",
        sealedCredential: "c2VhbGVk",
        keyVersion: 1,
        ledgerAuthToken: LedgerAuthToken(latID: "lat-1", token: "dG9rZW4", version: 1),
        transactionKeys: keys
    )
}

func freshTransactionKey(_ id: String) -> TransactionKey {
    TransactionKey(keyID: id, publicKey: TransactionKeyPair.generate(keyID: id).publicKeyBase64URL)
}

/// A ``VaultService`` over scripted answers, with an optional re-authentication hook (unit tests only).
struct ScriptedVaultFixture {
    let answers = ScriptedVaultAnswers()
    let reauthentications = ReauthenticationCounter()
    let transport: FakeTransport
    let store: InMemorySecureStore
    let service: VaultService

    init(reauthenticate: Bool = true, store: InMemorySecureStore = InMemorySecureStore()) throws {
        let answers = self.answers
        let counter = self.reauthentications
        transport = FakeTransport { request in await answers.next(request) }
        self.store = store
        var hook: VaultReauthenticator?
        if reauthenticate {
            hook = { _ in try await counter.next() }
        }
        service = VaultService(
            configuration: try VaultServiceConfiguration(
                baseURL: URL(string: "http://127.0.0.1:9")!,
                deviceType: .linux,
                transport: transport,
                reauthenticate: hook
            ),
            deviceKeyStore: SoftwareDeviceKeyStore(store: store),
            attester: DevelopmentTokenAttester(token: "dev-token"),
            store: store
        )
    }

    /// Stores a credential and a session `session-1` valid for 15 minutes.
    func signIn(keys: [TransactionKey] = []) async throws {
        try await service.credentialStore.save(
            VaultCredential(package: sampleStatusPackage(keys: keys), attestationFormat: .development))
        try await service.useSession(
            VaultSession(
                token: "session-1", expiresAt: Date().addingTimeInterval(900), credential: sampleStatusPackage()))
    }

    func requests(_ path: String) async -> [RecordedRequest] {
        await transport.log.requests.filter { $0.path == path }
    }

    /// Asserts the request carries `Authorization: DPoP <token>` and a proof with the token's `ath`.
    func expectSessionBound(_ request: RecordedRequest, token: String, method: String, path: String) throws {
        #expect(request.headers[.authorization] == "DPoP \(token)")
        let claims = try vaultProofClaims(try #require(request.headers[dpopField]))
        #expect(claims["ath"] as? String == DPoPProofBuilder.accessTokenHash(token))
        #expect(claims["htm"] as? String == method)
        #expect(claims["htu"] as? String == "http://127.0.0.1:9" + path)
    }
}

let activeStatusJSON = """
    {"status":"active","user_guid":"user-1","enrolled_at":"2030-01-01T00:00:00Z","last_auth_at":"2030-01-02T00:00:00Z",\
    "last_sync_at":"2030-01-03T00:00:00Z","device_type":"linux","security_level":"software","transaction_keys_remaining":12,\
    "credential_version":3}
    """

@Suite("Vault status (SDK)", .timeLimit(.minutes(1)))
struct VaultStatusTests {
    @Test("getVaultStatus sends the session token as DPoP with ath and maps every field")
    func readsStatus() async throws {
        let fixture = try ScriptedVaultFixture()
        try await fixture.signIn()
        await fixture.answers.add("/vault/status", .ok, activeStatusJSON)
        let status = try await fixture.service.getVaultStatus()
        #expect(status.status == .active)
        #expect(status.status.isKnown)
        #expect(status.userGUID == "user-1")
        #expect(status.enrolledAt == Date(timeIntervalSince1970: 1_893_456_000))
        #expect(status.lastSyncAt == Date(timeIntervalSince1970: 1_893_456_000 + 2 * 86_400))
        #expect(status.deviceType == .linux)
        #expect(status.securityLevel == "software")
        #expect(status.transactionKeysRemaining == 12)
        #expect(status.credentialVersion == 3)
        #expect(status.errorMessage == nil)
        let request = try #require(await fixture.requests("/vault/status").first)
        #expect(request.method == .get)
        try fixture.expectSessionBound(request, token: "session-1", method: "GET", path: "/vault/status")
        #expect(await fixture.reauthentications.calls == 0)
    }

    @Test("every known status decodes; the vault's error message is kept")
    func everyStatus() async throws {
        for value in ["not_enrolled", "pending", "enrolled", "active", "error"] {
            let fixture = try ScriptedVaultFixture()
            try await fixture.signIn()
            await fixture.answers.add("/vault/status", .ok, #"{"status":"\#(value)","error_message":"disk full"}"#)
            let status = try await fixture.service.getVaultStatus()
            #expect(status.status == VaultStatusValue(rawValue: value))
            #expect(status.errorMessage == "disk full")
        }
    }

    @Test("an unknown status string is an invalid_response error, not a crash")
    func unknownStatus() async throws {
        let fixture = try ScriptedVaultFixture()
        try await fixture.signIn()
        await fixture.answers.add("/vault/status", .ok, #"{"status":"frozen"}"#)
        let error = await captureError { _ = try await fixture.service.getVaultStatus() }
        #expect(error?.code == .invalidResponse)
    }

    @Test("a 5xx is an APIError with the status")
    func serverError() async throws {
        let fixture = try ScriptedVaultFixture()
        try await fixture.signIn()
        await fixture.answers.add(
            "/vault/status", .serviceUnavailable, #"{"error":"upstream_unavailable","error_description":"down"}"#)
        let error = await captureError { _ = try await fixture.service.getVaultStatus() }
        #expect(error?.code == .upstreamUnavailable)
        #expect(error?.status == 503)
        #expect(await fixture.reauthentications.calls == 0)
    }

    @Test("a 401 re-authenticates once and repeats the request with the new token")
    func reauthenticatesOnce() async throws {
        let fixture = try ScriptedVaultFixture()
        try await fixture.signIn()
        await fixture.answers.add(
            "/vault/status", .unauthorized, #"{"error":"invalid_token","error_description":"expired"}"#)
        await fixture.answers.add("/vault/status", .ok, activeStatusJSON)
        let status = try await fixture.service.getVaultStatus()
        #expect(status.status == .active)
        #expect(await fixture.reauthentications.calls == 1)
        let requests = await fixture.requests("/vault/status")
        #expect(requests.count == 2)
        try fixture.expectSessionBound(requests[0], token: "session-1", method: "GET", path: "/vault/status")
        try fixture.expectSessionBound(requests[1], token: "session-2", method: "GET", path: "/vault/status")
        // The new session is the current one.
        #expect(await fixture.service.sessionStore.current()?.token == "session-2")
    }

    @Test("a second 401 after re-authenticating surfaces invalid_token; no third request")
    func secondUnauthorized() async throws {
        let fixture = try ScriptedVaultFixture()
        try await fixture.signIn()
        for _ in 0..<3 {
            await fixture.answers.add(
                "/vault/status", .unauthorized, #"{"error":"invalid_token","error_description":"expired"}"#)
        }
        let error = await captureError { _ = try await fixture.service.getVaultStatus() }
        #expect(error?.code == .invalidToken)
        #expect(error?.status == 401)
        #expect(await fixture.reauthentications.calls == 1)
        #expect(await fixture.requests("/vault/status").count == 2)
    }

    @Test("without a reauthenticator: no session throws reauthentication_required before any request; a 401 too")
    func noReauthenticator() async throws {
        let fixture = try ScriptedVaultFixture(reauthenticate: false)
        let missing = await captureError { _ = try await fixture.service.getVaultStatus() }
        #expect(missing?.code == .reauthenticationRequired)
        #expect(await fixture.transport.log.requests.isEmpty)

        try await fixture.signIn()
        await fixture.answers.add(
            "/vault/status", .unauthorized, #"{"error":"invalid_token","error_description":"expired"}"#)
        let refused = await captureError { _ = try await fixture.service.getVaultStatus() }
        #expect(refused?.code == .reauthenticationRequired)
        #expect(refused?.status == 401)
        // The refused token is forgotten.
        #expect(await fixture.service.sessionStore.current() == nil)
    }

    @Test("reauthenticate: false never runs the hook")
    func reauthenticationDisabled() async throws {
        let fixture = try ScriptedVaultFixture()
        try await fixture.signIn()
        await fixture.answers.add(
            "/vault/status", .unauthorized, #"{"error":"invalid_token","error_description":"expired"}"#)
        let error = await captureError { _ = try await fixture.service.getVaultStatus(reauthenticate: false) }
        #expect(error?.code == .reauthenticationRequired)
        #expect(await fixture.reauthentications.calls == 0)
        #expect(await fixture.requests("/vault/status").count == 1)
    }

    @Test("a new process reuses the stored unexpired session; an expired one is not sent")
    func persistedSession() async throws {
        let store = InMemorySecureStore()
        let first = try ScriptedVaultFixture(store: store)
        try await first.signIn()
        #expect(try await store.data(forKey: "vettid.vault.credential.session") != nil)

        let second = try ScriptedVaultFixture(store: store)
        await second.answers.add("/vault/status", .ok, activeStatusJSON)
        _ = try await second.service.getVaultStatus()
        let request = try #require(await second.requests("/vault/status").first)
        #expect(request.headers[.authorization] == "DPoP session-1")
        #expect(await second.reauthentications.calls == 0)

        try await second.service.useSession(
            VaultSession(token: "old", expiresAt: Date().addingTimeInterval(5), credential: sampleStatusPackage()))
        let third = try ScriptedVaultFixture(store: store)
        await third.answers.add("/vault/status", .ok, activeStatusJSON)
        _ = try await third.service.getVaultStatus()
        #expect(await third.reauthentications.calls == 1)
        #expect(try #require(await third.requests("/vault/status").first).headers[.authorization] == "DPoP session-2")
    }

    @Test("concurrent 401s share one re-authentication")
    func singleFlight() async throws {
        let fixture = try ScriptedVaultFixture()
        try await fixture.signIn()
        await fixture.answers.reject(token: "session-1")
        for _ in 0..<4 { await fixture.answers.add("/vault/status", .ok, activeStatusJSON) }
        try await withThrowingTaskGroup(of: VaultStatus.self) { group in
            for _ in 0..<4 { group.addTask { try await fixture.service.getVaultStatus() } }
            for try await status in group { #expect(status.status == .active) }
        }
        #expect(await fixture.reauthentications.calls == 1)
        #expect(
            await fixture.requests("/vault/status").filter { $0.headers[.authorization] == "DPoP session-2" }.count == 4
        )
    }

    @Test("a failing reauthenticator's error surfaces")
    func reauthenticatorFails() async throws {
        let fixture = try ScriptedVaultFixture()
        await fixture.reauthentications.fail(
            with: APIError(code: .invalidCredentials, status: 401, description: "wrong"))
        let error = await captureError { _ = try await fixture.service.getVaultStatus() }
        #expect(error?.code == .invalidCredentials)
        #expect(await fixture.transport.log.requests.isEmpty)
    }
}
