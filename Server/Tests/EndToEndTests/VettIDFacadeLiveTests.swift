// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import AsyncHTTPClient
import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1
import Testing
import VettIDClient
import VettIDCore
import VettIDNats
import VettIDServer
import VettIDTestSupport

/// The SDK's front door against the real backend: configured with the base URL, team and bundle id (and, off a
/// device, the server's development token), it picks Linux's defaults, and its parts share one store and key.
@Suite("VettID facade live", .serialized, .timeLimit(.minutes(3)))
struct VettIDFacadeLiveTests {
    static let developmentToken = "facade-live-development-token-0123456789"

    struct UserEnvelope: Decodable { let user: User }
    struct User: Decodable { let email: String; let first_name: String? }

    @Test @MainActor func twoStatementsGiveAMemberAVaultTheGateAndTheAppsOwnRoutes() async throws {
        let clock = OffsetClock()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "vettid-facade-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try await GateLiveTests.withRecordingUpstream { @MainActor port, upstream in
            try await LiveServer.withServer(
                clock: clock,
                configure: { configuration in
                    configuration.gate = GateConfiguration(
                        developmentTokens: [Self.developmentToken],
                        upstreams: ["echo": GateUpstream(baseURL: "http://127.0.0.1:\(port)/api")])
                }
            ) { @MainActor server in
                let vettid = try VettID(
                    configuration: .init(
                        baseURL: server.baseURL, teamID: "ABCDE12345", bundleID: "dev.vettid.facade",
                        developmentToken: Self.developmentToken, storage: .platformDefault(directory: directory),
                        clock: clock))
                // Linux's defaults: an encrypted file, a software key, the development token.
                #expect(vettid.store is EncryptedFileSecureStore)
                #expect(vettid.deviceKeyStore is SoftwareDeviceKeyStore)
                #expect(vettid.attester is DevelopmentTokenAttester)

                // The Gate in one call.
                let proxied = try await vettid.gate.performProxyRequest(path: "/proxy/echo/hello", method: .get)
                #expect(proxied.status == .ok)

                // The member session, bound to the one device key.
                try await vettid.auth.register(
                    email: "facade@example.com", password: VaultLive.memberPassword, firstName: "Ada")
                let tokens = try #require(await vettid.auth.apiClient.session.current)
                #expect(tokens.authorizationScheme == "DPoP")

                // The app's own routes: typed decoding with the session's proof; one refresh after expiry.
                let me: UserEnvelope = try await vettid.get("/auth/me")
                #expect(me.user.email == "facade@example.com")
                #expect(me.user.first_name == "Ada")
                clock.advance(by: .seconds(3600))
                let later = try await vettid.get("/auth/me", as: UserEnvelope.self)
                #expect(later.user.email == "facade@example.com")
                #expect(await vettid.auth.apiClient.session.refreshesStarted == 1, "one refresh on the 401")
                let invitation: [String: String?] = ["label": "from the facade"]
                struct Created: Decodable { let code: String; let qr_payload: String }
                let created = try await vettid.post("/vault/invitations", body: invitation, as: Created.self)
                do throws(APIError) {
                    _ = try await vettid.get("/no/such/route", as: UserEnvelope.self)
                    Issue.record("a missing route answered")
                } catch {
                    #expect(error.code == .notFound)
                    #expect(error.status == 404)
                }

                // The vault: enrolled with the development token, its status with the member session (no vault
                // password needed for it).
                _ = try await vettid.vault.enroll(
                    invitation: try EnrollmentInvitationLink(parsing: created.qr_payload),
                    password: VaultLive.vaultPassword)
                #expect(try await vettid.vault.getVaultStatus().status == .enrolled)

                // authorizationHeaders for the app's own HTTP stack: a real request with them passes the Gate.
                let headers = try await vettid.authorizationHeaders(path: "/proxy/echo/own-stack", method: .post)
                #expect(headers[.authorization]?.hasPrefix("DPoP ") == true)
                var request = HTTPClientRequest(url: server.baseURL.absoluteString + "/proxy/echo/own-stack")
                request.method = .POST
                for field in headers { request.headers.add(name: field.name.rawName, value: field.value) }
                request.body = .bytes(ByteBuffer(string: "mine"))
                let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
                #expect(response.status.code == 200)
                // The same headers again: the proof was single-use.
                var replay = HTTPClientRequest(url: server.baseURL.absoluteString + "/proxy/echo/own-stack")
                replay.method = .POST
                for field in headers { replay.headers.add(name: field.name.rawName, value: field.value) }
                let replayed = try await HTTPClient.shared.execute(replay, timeout: .seconds(10))
                #expect(replayed.status.code == 401, "a replayed proof is refused")
                #expect(await upstream.lines.contains { $0.hasPrefix("POST /api/own-stack mine") })

                // The NATS manager comes from the same parts.
                let manager = vettid.natsManager()
                #expect(manager.state == .disconnected)
            }
        }
    }

    @Test func theConfigurationRefusesWhatCannotWork() throws {
        let url = URL(string: "https://api.example.com")!
        #expect(throws: ConfigurationError.self) {
            try VettIDConfiguration(baseURL: url, teamID: "short", bundleID: "dev.x")
        }
        #expect(throws: ConfigurationError.self) {
            try VettIDConfiguration(baseURL: url, teamID: "ABCDE12345", bundleID: "no spaces")
        }
        #expect(throws: ConfigurationError.self) {
            try VettIDConfiguration(baseURL: URL(string: "ftp://x")!, teamID: "ABCDE12345", bundleID: "dev.x")
        }
        #expect(throws: ConfigurationError.self) {
            try VettIDConfiguration(baseURL: url, teamID: "ABCDE12345", bundleID: "dev.x", developmentToken: "")
        }
    }

    @Test @MainActor func withoutADevelopmentTokenLinuxHasNoAttester() async throws {
        let vettid = try VettID(
            configuration: .init(
                baseURL: URL(string: "http://127.0.0.1:9")!, teamID: "ABCDE12345", bundleID: "dev.vettid.none",
                storage: .store(InMemorySecureStore())))
        #expect(vettid.attester is UnavailableAttester)
        await #expect(throws: DeviceAttestationError.self) {
            _ = try await vettid.attester.attestKey(challenge: [1], deviceKeyThumbprint: [2])
        }
    }
}
