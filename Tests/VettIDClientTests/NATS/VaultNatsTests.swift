// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes
import Testing
import VettIDCore
import VettIDMessaging

@testable import VettIDClient

let natsTokenJSON = """
    {"token_id":"tok-9","nats_jwt":"eyJhbGciOiJlZDI1NTE5LW5rZXkifQ.jwt-body.sig","nats_seed":"SUACSECRETSEEDVALUE",\
    "nats_creds":"-----BEGIN NATS USER JWT-----\\nSECRETCREDS\\n","nats_endpoint":"tls://nats.example.com:4222",\
    "expires_at":"2030-01-02T00:00:00Z","permissions":{"publish":["OwnerSpace.user-1.forVault.>"],\
    "subscribe":["OwnerSpace.user-1.forApp.>","OwnerSpace.user-1.eventTypes"]}}
    """

@Suite("Vault NATS endpoints (SDK)", .timeLimit(.minutes(1)))
struct VaultNatsTests {
    @Test("createNatsAccount posts with the vault session, maps the seed's names and refuses an answer without them")
    func createAccount() async throws {
        let fixture = try ScriptedVaultFixture()
        try await fixture.signIn()
        await fixture.answers.add(
            "/vault/nats/account", .ok,
            #"{"user_guid":"user-1","owner_space_id":"OwnerSpace.user-1","message_space_id":"MessageSpace.user-1","nats_endpoint":"tls://nats.example.com:4222","status":"active","account_public_key":"AABC","created_at":"2030-01-01T00:00:00Z"}"#
        )
        await fixture.answers.add(
            "/vault/nats/account", .ok,
            #"{"user_guid":"user-1","owner_space":"OwnerSpace.user-1","message_space":"MessageSpace.user-1","account_public_key":"AABC","created_at":"2030-01-01T00:00:00Z"}"#
        )
        await fixture.answers.add(
            "/vault/nats/account", .ok, #"{"user_guid":"user-1","status":"active","created_at":"2030-01-01T00:00:00Z"}"#
        )
        let account = try await fixture.service.createNatsAccount()
        #expect(
            account
                == NatsAccount(
                    userGUID: "user-1", ownerSpace: "OwnerSpace.user-1", messageSpace: "MessageSpace.user-1",
                    accountPublicKey: "AABC",
                    createdAt: Date(timeIntervalSince1970: 1_893_456_000), endpoint: "tls://nats.example.com:4222",
                    status: "active"))
        // `owner_space_id`, `message_space_id` and `status` are required (openapi.yaml `NatsAccount`): the older
        // names are not read any more, and an account without its spaces is not an account.
        await #expect { try await fixture.service.createNatsAccount() } throws: {
            APIError.unwrap($0)?.code == .invalidResponse
        }
        await #expect { try await fixture.service.createNatsAccount() } throws: {
            APIError.unwrap($0)?.code == .invalidResponse
        }
        let request = try #require(await fixture.requests("/vault/nats/account").first)
        #expect(request.method == .post)
        try fixture.expectSessionBound(request, token: "session-1", method: "POST", path: "/vault/nats/account")
    }

    @Test("409 account_exists (older servers), 404 not_found and 503 nats_not_configured arrive as typed codes")
    func typedErrors() async throws {
        let fixture = try ScriptedVaultFixture()
        try await fixture.signIn()
        await fixture.answers.add(
            "/vault/nats/account", .conflict, #"{"error":"account_exists","error_description":"exists"}"#)
        await fixture.answers.add(
            "/vault/nats/token", .notFound, #"{"error":"not_found","error_description":"no account"}"#)
        await fixture.answers.add(
            "/vault/nats/token", .serviceUnavailable, #"{"error":"nats_not_configured","error_description":"none"}"#)
        await #expect { try await fixture.service.createNatsAccount() } throws: {
            APIError.unwrap($0)?.code == .accountExists
        }
        await #expect { try await fixture.service.createNatsToken(deviceID: nil) } throws: {
            APIError.unwrap($0)?.code == .notFound
        }
        do {
            _ = try await fixture.service.createNatsToken(deviceID: nil)
            Issue.record("expected nats_not_configured")
        } catch APIError.natsNotConfigured {
            // expected
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test(
        "createNatsToken sends client_type and device_id and maps the credentials; the namespace comes from the permissions"
    )
    func createToken() async throws {
        let fixture = try ScriptedVaultFixture()
        try await fixture.signIn()
        await fixture.answers.add("/vault/nats/token", .ok, natsTokenJSON)
        let credentials = try await fixture.service.createNatsToken(clientType: .app, deviceID: "phone-1")
        #expect(credentials.tokenID == "tok-9")
        #expect(credentials.seed == "SUACSECRETSEEDVALUE")
        #expect(credentials.endpoint == "tls://nats.example.com:4222")
        #expect(credentials.namespace.userGUID == "user-1")
        #expect(credentials.clientType == .app)
        #expect(credentials.permissions == NatsPermissionSet.forClient(.app, in: credentials.namespace))
        #expect(credentials.expiresAt == Date(timeIntervalSince1970: 1_893_456_000 + 86_400))
        let request = try #require(await fixture.requests("/vault/nats/token").first)
        let body = try #require(try JSONSerialization.jsonObject(with: request.body) as? [String: Any])
        #expect(body["client_type"] as? String == "app")
        #expect(body["device_id"] as? String == "phone-1")
        try fixture.expectSessionBound(request, token: "session-1", method: "POST", path: "/vault/nats/token")
    }

    @Test("a token for another member than the stored credential is refused")
    func otherMember() async throws {
        let fixture = try ScriptedVaultFixture()
        try await fixture.signIn()
        await fixture.answers.add(
            "/vault/nats/token", .ok, natsTokenJSON.replacingOccurrences(of: "user-1", with: "user-2"))
        await #expect { try await fixture.service.createNatsToken(deviceID: nil) } throws: {
            APIError.unwrap($0)?.code == .invalidResponse
        }
    }

    @Test("a 401 re-authenticates once and repeats the call (VaultService is the NatsCredentialProvider)")
    func reauthenticates() async throws {
        let fixture = try ScriptedVaultFixture()
        try await fixture.signIn()
        await fixture.answers.reject(token: "session-1")
        await fixture.answers.add("/vault/nats/token", .ok, natsTokenJSON)
        let provider: any NatsCredentialProvider = fixture.service
        let credentials = try await provider.issueCredentials()
        #expect(credentials.tokenID == "tok-9")
        #expect(await fixture.reauthentications.calls == 1)
        let requests = await fixture.requests("/vault/nats/token")
        #expect(requests.map { $0.headers[.authorization] } == ["DPoP session-1", "DPoP session-2"])
    }

    @Test("getNatsStatus and revokeNatsToken map their answers")
    func statusAndRevoke() async throws {
        let fixture = try ScriptedVaultFixture()
        try await fixture.signIn()
        await fixture.answers.add(
            "/vault/nats/status", .ok,
            #"{"has_account":true,"account":{"user_guid":"user-1","owner_space_id":"OwnerSpace.user-1","message_space_id":"MessageSpace.user-1","status":"active","account_public_key":"AABC","created_at":"2030-01-01T00:00:00Z"},"nats_endpoint":"tls://nats.example.com:4222","active_tokens":[{"token_id":"tok-9","client_type":"app","device_id":"phone-1","user_public_key":"UABC","issued_at":"2030-01-01T00:00:00Z","expires_at":"2030-01-02T00:00:00Z"}]}"#
        )
        await fixture.answers.add(
            "/vault/nats/token/revoke", .ok,
            #"{"token_id":"tok-9","status":"revoked","revoked_at":"2030-01-01T12:00:00Z"}"#)
        let status = try await fixture.service.getNatsStatus()
        #expect(status.hasAccount)
        #expect(status.account?.ownerSpace == "OwnerSpace.user-1")
        #expect(status.endpoint == "tls://nats.example.com:4222")
        #expect(status.activeTokens.map(\.tokenID) == ["tok-9"])
        #expect(status.activeTokens.first?.clientType == .app)
        #expect(status.activeTokens.first?.deviceID == "phone-1")
        let revocation = try await fixture.service.revokeNatsToken(id: "tok-9")
        #expect(
            revocation
                == NatsTokenRevocation(
                    tokenID: "tok-9", status: "revoked", revokedAt: Date(timeIntervalSince1970: 1_893_456_000 + 43_200))
        )
        let request = try #require(await fixture.requests("/vault/nats/token/revoke").first)
        #expect(
            (try JSONSerialization.jsonObject(with: request.body) as? [String: Any])?["token_id"] as? String == "tok-9")
    }
}
