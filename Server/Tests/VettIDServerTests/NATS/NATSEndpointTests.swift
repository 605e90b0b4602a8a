// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing
import VettIDCore
import VettIDCrypto
import VettIDMessaging
import VettIDTestSupport

@testable import VettIDServer

/// NATS namespaces and tokens over HTTP on SQLite and PostgreSQL (no nats-server: revocation pushes fail and
/// are reported; the live tests in EndToEndTests run against a real one).
@Suite struct NATSEndpointTests {
    static func configuration(url: String? = "nats://127.0.0.1:9", maxTokens: Int = 20) -> ServerConfiguration {
        var configuration = TestApp.configuration()
        configuration.nats = NATSConfiguration(
            url: url, publicURL: url.map { _ in "tls://nats.example.com:4222" }, maxActiveTokensPerMember: maxTokens,
            workerInstances: 0)
        return configuration
    }

    static func bearer(_ client: any TestClientProtocol, _ email: String) async throws -> HTTPFields {
        let tokens = try await client.registerAndLogin(email: email)
        return [.authorization: "Bearer \(try #require(tokens["access_token"] as? String))"]
    }

    @Test(arguments: TestEngine.available)
    func accountIsAllocatedOnceAndNeedsAuthentication(engine: TestEngine) async throws {
        try await TestApp.withApp(engine, configuration: Self.configuration()) { client, app in
            let anonymous = try await client.post("/vault/nats/account", [:])
            #expect(anonymous.status == .unauthorized)
            let bearer = try await Self.bearer(client, "nats-account@example.com")
            let created = try await client.post("/vault/nats/account", [:], headers: bearer)
            #expect(created.status == .ok)
            let guid = try #require(created.json["user_guid"] as? String)
            // The product documents' shape; the old names are no longer sent.
            #expect(created.json["owner_space_id"] as? String == "OwnerSpace.\(guid)")
            #expect(created.json["message_space_id"] as? String == "MessageSpace.\(guid)")
            #expect(created.json["owner_space"] == nil && created.json["message_space"] == nil)
            #expect(created.json["status"] as? String == "active")
            #expect(created.json["nats_endpoint"] as? String == "tls://nats.example.com:4222")
            #expect(
                created.json["account_public_key"] as? String == app.components.natsTrust.applicationAccount.publicKey)
            // Idempotent: a second creation answers the same account.
            let again = try await client.post("/vault/nats/account", [:], headers: bearer)
            #expect(again.status == .ok)
            #expect(again.json["owner_space_id"] as? String == "OwnerSpace.\(guid)")
            #expect(again.json["created_at"] as? String == created.json["created_at"] as? String)
        }
    }

    @Test(arguments: TestEngine.available)
    func tokensAreFreshUserKeysWithExactPermissionsAndLimits(engine: TestEngine) async throws {
        try await TestApp.withApp(engine, configuration: Self.configuration()) { client, app in
            let bearer = try await Self.bearer(client, "nats-token@example.com")
            let noAccount = try await client.post("/vault/nats/token", ["client_type": "app"], headers: bearer)
            #expect(noAccount.status == .notFound)
            #expect(noAccount.errorCode == "not_found")
            let guid = try #require(
                try await client.post("/vault/nats/account", [:], headers: bearer).json["user_guid"] as? String)
            let namespace = try VaultNamespace(userGUID: guid)

            let issued = try await client.post(
                "/vault/nats/token", ["client_type": "app", "device_id": "phone-1"], headers: bearer)
            #expect(issued.status == .ok)
            #expect(issued.headers[.cacheControl] == "no-store")
            let body = issued.json
            let jwt = try #require(body["nats_jwt"] as? String)
            let seed = try #require(body["nats_seed"] as? String)
            #expect(body["nats_endpoint"] as? String == "tls://nats.example.com:4222")
            let claims = try NATSJWT.decode(jwt, as: NATSUserClaims.self)
            #expect(
                claims.issuer == app.components.natsTrust.applicationAccount.publicKey,
                "signed by the application account")
            #expect(try NKeyPair(seed: seed).publicKey == claims.subject, "the seed is the JWT's user key")
            #expect(claims.nats.permissions.publish.allow == ["OwnerSpace.\(guid).forVault.>"])
            #expect(
                claims.nats.permissions.subscribe.allow == [
                    "OwnerSpace.\(guid).forApp.>", "OwnerSpace.\(guid).eventTypes",
                ])
            #expect(claims.nats.maxSubscriptions == NATSTrust.userSubscriptionLimit)
            #expect(claims.nats.maxPayload == NATSTrust.userPayloadLimit)
            #expect(claims.nats.maxData == -1)
            #expect(claims.expires == claims.issuedAt + 24 * 3600, "app tokens last 24 hours")
            let creds = try NATSCredsFile.parse(try #require(body["nats_creds"] as? String))
            #expect(creds.jwt == jwt && creds.seed == seed)
            let permissions = try #require(body["permissions"] as? [String: Any])
            #expect(permissions["publish"] as? [String] == NatsPermissionSet.forClient(.app, in: namespace).publish)

            let vault = try await client.post("/vault/nats/token", ["client_type": "vault"], headers: bearer)
            let vaultClaims = try NATSJWT.decode(
                try #require(vault.json["nats_jwt"] as? String), as: NATSUserClaims.self)
            #expect(vaultClaims.subject != claims.subject, "a fresh user NKey per token")
            #expect(
                vaultClaims.nats.permissions.subscribe.allow
                    == NatsPermissionSet.forClient(.vault, in: namespace).subscribe)
            #expect(vaultClaims.nats.permissions.publish.allow.contains("MessageSpace.\(guid).forOwner.>"))

            let status = try await client.get("/vault/nats/status", headers: bearer)
            #expect(status.status == .ok)
            #expect(status.json["has_account"] as? Bool == true)
            let active = try #require(status.json["active_tokens"] as? [[String: Any]])
            #expect(active.count == 2)
            #expect(
                active.contains {
                    $0["user_public_key"] as? String == claims.subject && $0["device_id"] as? String == "phone-1"
                })
            #expect(
                !String(decoding: status.body.readableBytesView, as: UTF8.self).contains(seed),
                "status never returns seeds")
        }
    }

    @Test(arguments: TestEngine.available)
    func badTokenRequestsAreRefused(engine: TestEngine) async throws {
        try await TestApp.withApp(engine, configuration: Self.configuration(maxTokens: 2)) { client, _ in
            let bearer = try await Self.bearer(client, "nats-bad@example.com")
            #expect(try await client.post("/vault/nats/account", [:], headers: bearer).status == .ok)
            let unknownType = try await client.post("/vault/nats/token", ["client_type": "admin"], headers: bearer)
            #expect(unknownType.status == .badRequest)
            let extra = try await client.post(
                "/vault/nats/token", ["client_type": "app", "sudo": true], headers: bearer)
            #expect(extra.status == .badRequest)
            let longDevice = try await client.post(
                "/vault/nats/token", ["client_type": "app", "device_id": String(repeating: "d", count: 129)],
                headers: bearer)
            #expect(longDevice.status == .badRequest)
            #expect(try await client.post("/vault/nats/token", ["client_type": "app"], headers: bearer).status == .ok)
            #expect(try await client.post("/vault/nats/token", ["client_type": "app"], headers: bearer).status == .ok)
            let third = try await client.post("/vault/nats/token", ["client_type": "app"], headers: bearer)
            #expect(third.status == .tooManyRequests)
            #expect(third.errorCode == "too_many_tokens")
        }
    }

    @Test(arguments: TestEngine.available)
    func withoutANATSServerTokensAreNotIssued(engine: TestEngine) async throws {
        try await TestApp.withApp(engine, configuration: Self.configuration(url: nil)) { client, _ in
            let bearer = try await Self.bearer(client, "nats-off@example.com")
            #expect(try await client.post("/vault/nats/account", [:], headers: bearer).status == .ok)
            let token = try await client.post("/vault/nats/token", ["client_type": "app"], headers: bearer)
            #expect(token.status == .serviceUnavailable)
            #expect(token.errorCode == "nats_not_configured")
        }
    }

    @Test(arguments: TestEngine.available)
    func revocationIsRecordedScopedToTheMemberAndEnteredInTheAccountJWT(engine: TestEngine) async throws {
        try await TestApp.withApp(engine, configuration: Self.configuration()) { client, app in
            let alice = try await Self.bearer(client, "nats-alice@example.com")
            let mallory = try await Self.bearer(client, "nats-mallory@example.com")
            for member in [alice, mallory] {
                #expect(try await client.post("/vault/nats/account", [:], headers: member).status == .ok)
            }
            let token = try await client.post("/vault/nats/token", ["client_type": "app"], headers: alice).json
            let tokenID = try #require(token["token_id"] as? String)
            let userKey = try NATSJWT.decode(try #require(token["nats_jwt"] as? String), as: NATSUserClaims.self)
                .subject

            let foreign = try await client.post("/vault/nats/token/revoke", ["token_id": tokenID], headers: mallory)
            #expect(foreign.status == .notFound, "a member cannot revoke another member's token")
            let unknown = try await client.post("/vault/nats/token/revoke", ["token_id": "nt_nope"], headers: alice)
            #expect(unknown.status == .notFound)

            // Nothing listens at the configured nats-server: the revocation is recorded, and the caller is told
            // it is not enforced yet.
            let revoked = try await client.post("/vault/nats/token/revoke", ["token_id": tokenID], headers: alice)
            #expect(revoked.status == .serviceUnavailable)
            #expect(revoked.errorCode == "nats_unavailable")
            let exposition = String(decoding: app.components.metrics.exposition(), as: UTF8.self)
            #expect(exposition.contains(#"vettid_nats_revocation_pushes_total{result="failed"} 1"#), "\(exposition)")
            // Not ready while the revocation cannot reach nats-server.
            let ready = try await client.execute(uri: "/health/ready", method: .get)
            #expect(ready.status == .serviceUnavailable)
            #expect(ready.json["status"] as? String == "not_ready")
            #expect((ready.json["checks"] as? [String: Any])?["nats"] as? String == "unavailable")
            #expect((ready.json["checks"] as? [String: Any])?["store"] as? String == "ok")
            let status = try await client.get("/vault/nats/status", headers: alice)
            #expect((status.json["active_tokens"] as? [Any])?.isEmpty == true)
            let accountJWT = try NATSJWT.decode(
                try await app.components.natsAccountJWT.current(), as: NATSAccountClaims.self)
            #expect(accountJWT.nats.revocations[userKey] != nil, "the next account JWT pushed revokes the user key")
            #expect(accountJWT.issuer == app.components.natsTrust.operatorKey.publicKey)

            // A revoked token that has expired drops out of the account JWT.
            app.clock.advance(24 * 3600 + 1)
            let later = try NATSJWT.decode(
                try await app.components.natsAccountJWT.current(), as: NATSAccountClaims.self)
            #expect(later.nats.revocations[userKey] == nil)
        }
    }

    @Test func anEmptyAllowListDeniesEverySubjectInsteadOfNone() throws {
        let user = try NATSTrust.ephemeral().userCredentials(
            name: "t", permissions: NatsPermissionSet(publish: [], subscribe: ["a.b"]), issuedAt: 1, expiresAt: nil)
        let permissions = try NATSJWT.decode(user.jwt, as: NATSUserClaims.self).nats.permissions
        #expect(permissions.publish.allow.isEmpty && permissions.publish.deny == [">"])
        #expect(permissions.subscribe.allow == ["a.b"] && permissions.subscribe.deny.isEmpty)
    }

    /// Only an app token with a mailbox may answer requests (the relay's presence question, docs/protocol.md 7.6):
    /// once per request, within 5 s; its other permissions stay exact.
    @Test func onlyAnAppWithAMailboxMayReplyOncePerRequest() throws {
        let namespace = try VaultNamespace(userGUID: "3f2c9a1e-6b7d-4e21-9c55-0a1b2c3d4e5f")
        let mailbox = try MailboxAddress(namespace: namespace, deviceJKT: String(repeating: "A", count: 43))
        #expect(
            mailbox.presenceSubject == "\(namespace.ownerSpace).forApp.presence.\(String(repeating: "A", count: 43))")
        let trust = NATSTrust.ephemeral()
        func response(_ permissions: NatsPermissionSet) throws -> NATSResponsePermission? {
            let user = try trust.userCredentials(name: "t", permissions: permissions, issuedAt: 1, expiresAt: nil)
            return try NATSJWT.decode(user.jwt, as: NATSUserClaims.self).nats.permissions.response
        }
        let withMailbox = NatsPermissionSet.app(in: namespace, mailbox: mailbox)
        #expect(try response(withMailbox) == NATSResponsePermission(maxMessages: 1, expiresNanoseconds: 5_000_000_000))
        #expect(try response(NatsPermissionSet.app(in: namespace, mailbox: nil)) == nil)
        #expect(try response(NatsPermissionSet.forClient(.vault, in: namespace)) == nil)
        #expect(!withMailbox.publish.contains { $0.contains("presence") }, "answers go only to the asker's inbox")
        #expect(NatsPermissionSet.mailboxRelay.publish.contains(MailboxAddress.presenceSubjects))
    }

    @Test(arguments: TestEngine.available)
    func accountJWTVersionsStrictlyIncreaseEvenWithinOneSecond(engine: TestEngine) async throws {
        try await TestApp.withApp(engine, configuration: Self.configuration()) { _, app in
            var last: Int64 = 0
            for _ in 0..<5 {
                let claims = try NATSJWT.decode(
                    try await app.components.natsAccountJWT.current(), as: NATSAccountClaims.self)
                #expect(claims.issuedAt > last)
                last = claims.issuedAt
                #expect(claims.nats.limits.connections == -1 && claims.nats.limits.leafNodeConnections == 0)
            }
        }
    }
}
