// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Logging
import SQLKit
import Testing

@testable import VettIDServer

/// The storage suite, run on SQLite and on PostgreSQL.
@Suite struct StorageTests {
    @Test(arguments: TestEngine.available)
    func migrationsAreVersionedAndIdempotent(engine: TestEngine) async throws {
        try await withTestStore(engine) { store in
            let again = try await Migrator(store: store, logger: Logger(label: "test")).migrate()
            #expect(again.isEmpty)
            let versions = try await store.withDatabase { db in
                try await db.raw("SELECT version FROM schema_migrations ORDER BY version").all().map {
                    try $0.decode(column: "version", as: Int.self)
                }
            }
            #expect(versions == Migrations.all.map(\.version))
        }
    }

    @Test(arguments: TestEngine.available)
    func membersAreUniqueByEmailAndSQLIsBound(engine: TestEngine) async throws {
        try await withTestStore(engine) { store in
            let members = MemberRepository(store: store)
            let now = Date(timeIntervalSince1970: 1_800_000_000)
            let tricky = "o'brien\"; drop table users;--@example.com"
            let created = try #require(try await members.create(email: tricky, passwordHash: "$h1", now: now))
            #expect(try await members.create(email: tricky, passwordHash: "$h2", now: now) == nil)
            #expect(try await members.find(email: tricky) == created)
            #expect(try await members.find(id: created.id)?.email == tricky)
            try await members.replacePasswordHash(id: created.id, old: "$wrong", new: "$h3", now: now)
            #expect(
                try await members.find(id: created.id)?.passwordHash == "$h1", "compare-and-set refuses a stale hash")
            try await members.replacePasswordHash(id: created.id, old: "$h1", new: "$h3", now: now)
            #expect(try await members.find(id: created.id)?.passwordHash == "$h3")
        }
    }

    @Test(arguments: TestEngine.available)
    func refreshTokensRotateOnceAndReuseRevokesTheFamily(engine: TestEngine) async throws {
        try await withTestStore(engine) { store in
            let now = Date(timeIntervalSince1970: 1_800_000_000)
            let member = try #require(
                try await MemberRepository(store: store).create(email: "a@example.com", passwordHash: "$h", now: now))
            let sessions = SessionRepository(store: store)
            let session = try await sessions.create(
                memberID: member.id, dpopJKT: nil, refreshTokenHash: "h0",
                refreshExpiresAt: now.addingTimeInterval(100),
                sessionExpiresAt: now.addingTimeInterval(1000), now: now
            )
            let rotated = try await sessions.rotate(
                presentedHash: "h0", nextHash: "h1", nextExpiresAt: now.addingTimeInterval(100), now: now)
            #expect(rotated == .rotated(session: session))
            #expect(
                try await sessions.rotate(presentedHash: "nope", nextHash: "x", nextExpiresAt: now, now: now)
                    == .unknown)
            // h0 again: reuse. The whole family dies, including the live h1.
            #expect(
                try await sessions.rotate(
                    presentedHash: "h0", nextHash: "h2", nextExpiresAt: now.addingTimeInterval(100), now: now)
                    == .reused(sessionID: session.id))
            #expect(try await sessions.find(id: session.id)?.isActive(at: now) == false)
            #expect(
                try await sessions.rotate(
                    presentedHash: "h1", nextHash: "h3", nextExpiresAt: now.addingTimeInterval(100), now: now)
                    == .sessionEnded)
        }
    }

    @Test(arguments: TestEngine.available)
    func expiredRefreshTokensAreUnknown(engine: TestEngine) async throws {
        try await withTestStore(engine) { store in
            let now = Date(timeIntervalSince1970: 1_800_000_000)
            let member = try #require(
                try await MemberRepository(store: store).create(email: "b@example.com", passwordHash: "$h", now: now))
            let sessions = SessionRepository(store: store)
            _ = try await sessions.create(
                memberID: member.id, dpopJKT: nil, refreshTokenHash: "h0", refreshExpiresAt: now.addingTimeInterval(10),
                sessionExpiresAt: now.addingTimeInterval(1000), now: now
            )
            #expect(
                try await sessions.rotate(
                    presentedHash: "h0", nextHash: "h1", nextExpiresAt: now, now: now.addingTimeInterval(11))
                    == .unknown)
        }
    }

    /// Many concurrent refreshes with one token: exactly one wins; the others count as reuse
    /// (which revokes the family — the SDK single-flights its refreshes so a real client never does this).
    @Test(arguments: TestEngine.available)
    func concurrentRotationHasExactlyOneWinner(engine: TestEngine) async throws {
        try await withTestStore(engine) { store in
            let now = Date(timeIntervalSince1970: 1_800_000_000)
            let member = try #require(
                try await MemberRepository(store: store).create(email: "c@example.com", passwordHash: "$h", now: now))
            let sessions = SessionRepository(store: store)
            _ = try await sessions.create(
                memberID: member.id, dpopJKT: nil, refreshTokenHash: "h0",
                refreshExpiresAt: now.addingTimeInterval(100),
                sessionExpiresAt: now.addingTimeInterval(1000), now: now
            )
            let outcomes = try await withThrowingTaskGroup(of: RefreshOutcome.self) { group in
                for index in 0..<12 {
                    group.addTask {
                        try await sessions.rotate(
                            presentedHash: "h0", nextHash: "n\(index)", nextExpiresAt: now.addingTimeInterval(100),
                            now: now)
                    }
                }
                return try await group.reduce(into: [RefreshOutcome]()) { $0.append($1) }
            }
            let winners = outcomes.filter { if case .rotated = $0 { return true } else { return false } }
            let reused = outcomes.filter { if case .reused = $0 { return true } else { return false } }
            #expect(winners.count == 1)
            #expect(reused.count == 11, "a second use of a refresh token is reuse, even when concurrent")
        }
    }
}
