// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing
import VettIDCore
import VettIDTestSupport

@testable import VettIDServer

/// Invitations through the HTTP router, on SQLite and PostgreSQL.
@Suite struct InvitationTests {
    @Test(arguments: TestEngine.available)
    func createListRevokeAndRender(engine: TestEngine) async throws {
        try await TestApp.withApp(engine) { client, app in
            let tokens = try await client.registerAndLogin(email: "inviter@example.com")
            let bearer: HTTPFields = [.authorization: "Bearer \(try #require(tokens["access_token"] as? String))"]
            let created = try await client.post(
                "/vault/invitations", ["label": "Anna's phone", "expires_in": 600], headers: bearer)
            #expect(created.status == .created)
            let code = try #require(created.json["code"] as? String)
            #expect(InvitationCode(parsing: code)?.value == code)
            #expect(created.json["status"] as? String == "pending")
            #expect(created.json["label"] as? String == "Anna's phone")
            #expect((created.json["qr_payload"] as? String)?.hasPrefix("vettid://enroll?code=\(code)&api=http") == true)

            let second = try await client.execute(uri: "/vault/invitations", method: .post, headers: bearer)
            #expect(second.status == .created, "the body is optional")
            let list = try await client.get("/vault/invitations", headers: bearer)
            let codes = (list.json["invitations"] as? [[String: Any]])?.compactMap { $0["code"] as? String }
            #expect(codes?.count == 2)
            #expect(Set(codes ?? []) == [code, try #require(second.json["code"] as? String)])

            let png = try await client.get("/vault/invitations/\(code)/qr", headers: bearer)
            #expect(png.status == .ok)
            #expect(png.headers[.contentType] == "image/png")
            #expect(Array(png.body.readableBytesView.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
            var textHeaders = bearer
            textHeaders[.accept] = "text/plain"
            let text = try await client.get("/vault/invitations/\(code)/qr", headers: textHeaders)
            #expect(text.headers[.contentType]?.hasPrefix("text/plain") == true)
            #expect(String(buffer: text.body).contains("█"))

            let revoked = try await client.post("/vault/invitations/\(code)/revoke", [:], headers: bearer)
            #expect(revoked.status == .ok)
            #expect(revoked.json["status"] as? String == "revoked")
            let again = try await client.post("/vault/invitations/\(code)/revoke", [:], headers: bearer)
            #expect(again.status == .conflict)
            #expect(again.errorCode == "invitation_revoked")

            app.clock.advance(86_401)
            // The day that expired the invitation expired the access token too; refresh it.
            let stale = try await client.post(
                "/vault/invitations/\(try #require(second.json["code"] as? String))/revoke", [:], headers: bearer)
            #expect(stale.status == .unauthorized, "access tokens expire on the server's clock")
            let refreshed = try await client.post(
                "/auth/refresh", ["refresh_token": try #require(tokens["refresh_token"] as? String)])
            let fresh: HTTPFields = [
                .authorization: "Bearer \(try #require(refreshed.json["access_token"] as? String))"
            ]
            let expired = try await client.post(
                "/vault/invitations/\(try #require(second.json["code"] as? String))/revoke", [:], headers: fresh)
            #expect(expired.status == .conflict, "a pending invitation past its expiry is expired, not revocable")
            #expect(expired.errorCode == "invitation_expired")
        }
    }

    @Test func membersCannotSeeOrRevokeOthersInvitations() async throws {
        try await TestApp.withApp(.sqlite) { client, _ in
            let alice = try await client.registerAndLogin(email: "alice-inv@example.com")
            let mallory = try await client.registerAndLogin(email: "mallory-inv@example.com")
            let aliceAuth: HTTPFields = [.authorization: "Bearer \(try #require(alice["access_token"] as? String))"]
            let malloryAuth: HTTPFields = [.authorization: "Bearer \(try #require(mallory["access_token"] as? String))"]
            let code = try #require(
                try await client.post("/vault/invitations", [:], headers: aliceAuth).json["code"] as? String)
            #expect(
                try await client.post("/vault/invitations/\(code)/revoke", [:], headers: malloryAuth).errorCode
                    == "invitation_not_found")
            #expect(try await client.get("/vault/invitations/\(code)/qr", headers: malloryAuth).status == .notFound)
            #expect(
                (try await client.get("/vault/invitations", headers: malloryAuth).json["invitations"] as? [Any])?
                    .isEmpty == true)
            #expect(try await client.get("/vault/invitations").status == .unauthorized)
        }
    }

    @Test(
        arguments: [
            ["expires_in": 10], ["expires_in": 604_801], ["label": String(repeating: "x", count: 101)],
            ["label": "bad\u{7}bell"],
            // 101 code points that are one grapheme cluster: JSON Schema's maxLength counts code points.
            ["label": "a" + String(repeating: "\u{301}", count: 100)],
            ["label": "a" + String(repeating: "\u{301}", count: 5_000)],
            ["label": String(repeating: " ", count: 101)],
            ["expires_in": "soon"], ["color": "blue"],
        ] as [[String: any Sendable]])
    func refusesBadRequests(body: [String: any Sendable]) async throws {
        try await TestApp.withApp(.sqlite) { client, _ in
            let tokens = try await client.registerAndLogin(email: "bad-inv@example.com")
            let auth: HTTPFields = [.authorization: "Bearer \(try #require(tokens["access_token"] as? String))"]
            let response = try await client.post("/vault/invitations", body, headers: auth)
            #expect(response.status == .badRequest)
            #expect(response.errorCode == "invalid_request")
        }
    }

    @Test(arguments: TestEngine.available)
    func redemptionIsAtomicAndSingleUse(engine: TestEngine) async throws {
        try await withTestStore(engine) { store in
            let now = Date(timeIntervalSince1970: 1_800_000_000)
            let member = try #require(
                try await MemberRepository(store: store).create(email: "r@example.com", passwordHash: "$h", now: now))
            let repository = InvitationRepository(store: store)
            let invitation = try await repository.create(
                memberID: member.id, label: nil, expiresAt: now.addingTimeInterval(60), now: now)
            let winners = try await withThrowingTaskGroup(of: UUID?.self) { group in
                for _ in 0..<10 {
                    group.addTask {
                        try await store.transaction { db in
                            try await repository.redeem(invitation.code, now: now, on: db)
                        }
                    }
                }
                return try await group.reduce(into: [UUID]()) { if let id = $1 { $0.append(id) } }
            }
            #expect(winners == [member.id])
            let late = try await repository.create(
                memberID: member.id, label: nil, expiresAt: now.addingTimeInterval(60), now: now)
            #expect(
                try await store.transaction { db in
                    try await repository.redeem(late.code, now: now.addingTimeInterval(61), on: db)
                } == nil)
        }
    }
}
