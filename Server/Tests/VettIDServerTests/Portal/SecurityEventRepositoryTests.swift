// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing

@testable import VettIDServer

/// Security events on both engines: newest first to the millisecond, per member, bounded, no secret kept.
struct SecurityEventRepositoryTests {
    @Test(arguments: TestEngine.available)
    func eventsComeBackNewestFirstForTheirMemberOnly(engine: TestEngine) async throws {
        try await withTestStore(engine) { store in
            let members = MemberRepository(store: store)
            let now = Date(timeIntervalSince1970: 1_800_000_000)
            let ada = try #require(try await members.create(email: "ada@example.com", passwordHash: "x", now: now))
            let bob = try #require(try await members.create(email: "bob@example.com", passwordHash: "x", now: now))
            let events = SecurityEventRepository(store: store)
            let origin = SecurityEvent.Origin(ip: "192.0.2.7", client: String(repeating: "u", count: 500))
            // Three events inside one second keep their order.
            for (offset, kind) in [(0.001, SecurityEvent.Kind.login), (0.002, .invitationCreated), (0.003, .logout)] {
                try await events.record(
                    SecurityEvent(
                        memberID: ada.id, kind: kind, occurredAt: now.addingTimeInterval(offset), origin: origin,
                        detail: "iPhone"))
            }
            try await events.record(
                SecurityEvent(memberID: bob.id, kind: .login, occurredAt: now, origin: .none, detail: nil))
            let recent = try await events.recent(memberID: ada.id)
            #expect(recent.map(\.kind) == [.logout, .invitationCreated, .login])
            #expect(recent.allSatisfy { $0.memberID == ada.id })
            #expect(recent[0].origin.ip == "192.0.2.7")
            #expect(recent[0].origin.client?.count == SecurityEvent.Origin.maximumClientLength)
            #expect(abs(recent[0].occurredAt.timeIntervalSince(now.addingTimeInterval(0.003))) < 0.001)
            #expect(try await events.recent(memberID: ada.id, limit: 2).count == 2)
            let bobs = try await events.recent(memberID: bob.id)
            #expect(bobs.count == 1 && bobs[0].origin == .none && bobs[0].detail == nil)
        }
    }
}
