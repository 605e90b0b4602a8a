// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import SQLKit
import Testing
import VettIDCore
import VettIDMessaging
import VettIDTestSupport

@testable import VettIDServer

/// The member's secrets and profile at rest, on SQLite and PostgreSQL: ciphertext in every row, versions and
/// limits with typed errors, a deleted secret gone, and an at-rest rotation with a reseal that keeps them readable.
@Suite struct VaultSecretStoreTests {
    static let value = "correct horse 0451 battery"
    static let name = "bank-pin-for-the-tests"

    /// A member in a fresh store, with the repositories over `keys`.
    static func member(_ store: any SQLStore, _ email: String = "secrets@example.com") async throws -> String {
        let member = try #require(
            try await MemberRepository(store: store).create(email: email, passwordHash: "$h", now: Date()))
        return member.id.key
    }

    /// Every column of every row of `table`, as text: what a reader of the database file or a dump sees.
    static func rowText(_ store: any SQLStore, _ table: String, columns: [String]) async throws -> String {
        try await store.withDatabase { db in
            try await db.raw("SELECT \(unsafeRaw: columns.joined(separator: ", ")) FROM \(unsafeRaw: table)").all()
        }.map { row in
            columns.map {
                (try? row.decode(column: $0, as: String.self))
                    ?? "\((try? row.decode(column: $0, as: Int64.self)) ?? 0)"
            }
            .joined(separator: "|")
        }.joined(separator: "\n")
    }

    @Test(arguments: TestEngine.available)
    func secretsAndProfilesAreCiphertextInTheRows(engine: TestEngine) async throws {
        try await withTestStore(engine) { store in
            let memberID = try await Self.member(store)
            let keys = SealingKeys(ring: .original, keys: .ephemeral())
            let secrets = VaultSecretRepository(store: store, keys: keys, limits: .standard)
            let profiles = VaultProfileRepository(store: store, keys: keys, limits: .standard)
            _ = try await secrets.put(
                memberID: memberID, name: Self.name, value: Array(Self.value.utf8), expectedVersion: 0, now: 1)
            _ = try await profiles.update(
                memberID: memberID, ProfileUpdateRequest(set: ["display_name": "Ada Lovelace-Byron"]), now: 2)

            let rows = [
                try await Self.rowText(
                    store, "vault_secrets", columns: ["user_id", "name_id", "version", "size", "sealed"]),
                try await Self.rowText(store, "vault_profiles", columns: ["user_id", "version", "sealed"]),
                try await Self.rowText(store, "vault_data_keys", columns: ["user_id", "sealed_key"]),
            ].joined(separator: "\n")
            #expect(rows.contains(memberID), "the rows are read")
            for needle in [Self.value, Self.name, "bank-pin", "Ada Lovelace", "display_name"] {
                #expect(!rows.contains(needle), "'\(needle)' is stored in the clear")
                // Nor base64 of it (the wire form of a value).
                #expect(!rows.contains(Data(needle.utf8).base64EncodedString().dropLast(4)))
            }
            // And it reads back.
            #expect(
                try await secrets.get(memberID: memberID, name: Self.name)?.value == Data(Self.value.utf8))
            #expect(try await profiles.get(memberID: memberID).fields == ["display_name": "Ada Lovelace-Byron"])
        }
    }

    @Test(arguments: TestEngine.available)
    func versionsLimitsAndDeletion(engine: TestEngine) async throws {
        try await withTestStore(engine) { store in
            let memberID = try await Self.member(store)
            let limits = VaultDataLimits(
                maxNameBytes: 16, maxValueBytes: 8, maxSecrets: 2, maxTotalBytes: 10, maxProfileFields: 2,
                maxProfileValueBytes: 8)
            let secrets = VaultSecretRepository(
                store: store, keys: SealingKeys(ring: .original, keys: .ephemeral()), limits: limits)

            let first = try await secrets.put(
                memberID: memberID, name: "a", value: [1, 2, 3], expectedVersion: 0, now: 10)
            #expect(first == SecretSummary(name: "a", version: 1, size: 3, updatedAt: 10))
            let second = try await secrets.put(
                memberID: memberID, name: "a", value: [4, 5], expectedVersion: 1, now: 11)
            #expect(second.version == 2)
            // A stale or a "must be new" expected version is a conflict, and nothing changes.
            for stale: Int64 in [0, 1, 3] {
                let error = await #expect(throws: VaultMessageError.self) {
                    try await secrets.put(memberID: memberID, name: "a", value: [9], expectedVersion: stale, now: 12)
                }
                #expect(error?.code == .versionConflict)
            }
            #expect(try await secrets.get(memberID: memberID, name: "a")?.value == Data([4, 5]))

            // Count and total bytes per member.
            _ = try await secrets.put(
                memberID: memberID, name: "b", value: Array(repeating: 7, count: 8), expectedVersion: nil, now: 13)
            let tooMany = await #expect(throws: VaultMessageError.self) {
                try await secrets.put(memberID: memberID, name: "c", value: [1], expectedVersion: nil, now: 14)
            }
            #expect(tooMany?.code == .secretLimitReached)
            let tooBig = await #expect(throws: VaultMessageError.self) {
                try await secrets.put(memberID: memberID, name: "a", value: [1, 2, 3], expectedVersion: nil, now: 14)
            }
            #expect(tooBig?.code == .secretLimitReached, "2 + 8 bytes stored; replacing 2 with 3 exceeds 10")

            let listed = try await secrets.list(memberID: memberID)
            #expect(listed.secrets.map(\.name) == ["a", "b"])
            #expect(listed.totalBytes == 10)

            // A delete with a stale version is refused; then the secret is gone, row and all.
            let stale = await #expect(throws: VaultMessageError.self) {
                try await secrets.delete(memberID: memberID, name: "a", expectedVersion: 1)
            }
            #expect(stale?.code == .versionConflict)
            #expect(try await secrets.delete(memberID: memberID, name: "a", expectedVersion: 2)?.version == 2)
            #expect(try await secrets.get(memberID: memberID, name: "a") == nil)
            #expect(try await secrets.delete(memberID: memberID, name: "a", expectedVersion: nil) == nil)
            let remaining = try await store.withDatabase { db in
                try await db.raw("SELECT COUNT(*) AS n FROM vault_secrets").first()?.decode(column: "n", as: Int.self)
            }
            #expect(remaining == 1)
        }
    }

    @Test(arguments: TestEngine.available)
    func anotherMembersKeyOpensNothingAndAMovedRowIsRefused(engine: TestEngine) async throws {
        try await withTestStore(engine) { store in
            let alice = try await Self.member(store, "alice@example.com")
            let bob = try await Self.member(store, "bob@example.com")
            let secrets = VaultSecretRepository(
                store: store, keys: SealingKeys(ring: .original, keys: .ephemeral()), limits: .standard)
            _ = try await secrets.put(memberID: alice, name: "shared-name", value: [1], expectedVersion: nil, now: 1)
            #expect(try await secrets.get(memberID: bob, name: "shared-name") == nil)
            // Bob gets a key of his own; Alice's sealed row copied under Bob's id does not open.
            _ = try await secrets.put(memberID: bob, name: "other", value: [2], expectedVersion: nil, now: 2)
            try await store.withDatabase { db in
                try await db.raw(
                    """
                    UPDATE vault_secrets SET user_id = \(bind: bob) WHERE user_id = \(bind: alice)
                    """
                ).run()
            }
            await #expect(throws: StoreCorruption.self) { try await secrets.list(memberID: bob) }
        }
    }

    @Test(arguments: TestEngine.available)
    func aRotationAndResealKeepEverySecretReadable(engine: TestEngine) async throws {
        try await withTestStore(engine) { store in
            let memberID = try await Self.member(store)
            let clock = ManualClock().wall
            let keys = SealingKeys(ring: .original, keys: .ephemeral(), clock: clock)
            let secrets = VaultSecretRepository(store: store, keys: keys, limits: .standard)
            let profiles = VaultProfileRepository(store: store, keys: keys, limits: .standard)
            _ = try await secrets.put(
                memberID: memberID, name: Self.name, value: Array(Self.value.utf8), expectedVersion: nil, now: 1)
            _ = try await profiles.update(memberID: memberID, ProfileUpdateRequest(set: ["city": "Turin"]), now: 1)

            keys.reload(
                try keys.ring.rotated(
                    secret: .init(repeating: 3, count: 32), now: clock.unixSeconds(), activationDelay: 0))
            let resealer = AtRestResealer(store: store, keys: keys)
            #expect(try await resealer.reseal().resealed == 1, "the member's data key, re-wrapped")
            keys.reload(try keys.ring.removing(1, now: clock.unixSeconds()))
            #expect(try await resealer.census()[2] == 1)

            #expect(try await secrets.get(memberID: memberID, name: Self.name)?.value == Data(Self.value.utf8))
            #expect(try await profiles.get(memberID: memberID).fields == ["city": "Turin"])
            // New secrets after the rotation use the same (re-wrapped) data key.
            _ = try await secrets.put(memberID: memberID, name: "after", value: [1], expectedVersion: 0, now: 2)
            #expect(try await secrets.list(memberID: memberID).secrets.map(\.name) == ["after", Self.name])
        }
    }

    @Test(arguments: TestEngine.available)
    func theAccessLogKeepsEntriesNewestFirstAndPrunes(engine: TestEngine) async throws {
        try await withTestStore(engine) { store in
            let memberID = try await Self.member(store)
            let repository = VaultAccessLogRepository(store: store)
            let log = VaultAccessLog(repository: repository, logger: LogCapture().logger(label: "t"))
            let base = Date(timeIntervalSince1970: 1_800_000_000)
            for (offset, outcome) in [(0, "ok"), (1, "secret_not_found"), (2, "ok")] {
                log.record(
                    VaultAccessEntry(
                        memberID: memberID, deviceThumbprint: offset == 1 ? nil : "thumb", handlerID: "secret.get",
                        outcome: outcome, occurredAt: base.addingTimeInterval(Double(offset))))
            }
            await log.flush()
            let entries = try await repository.recent(memberID: memberID)
            #expect(entries.map(\.outcome) == ["ok", "secret_not_found", "ok"])
            #expect(entries.map(\.deviceThumbprint) == ["thumb", nil, "thumb"])
            #expect(try await repository.prune(before: base.addingTimeInterval(1.5)) == 2)
            #expect(try await repository.recent(memberID: memberID).count == 1)

            // A batch larger than one statement's rows is written whole.
            let many = (0..<250).map { index in
                VaultAccessEntry(
                    memberID: memberID, deviceThumbprint: "t\(index)", handlerID: "echo", outcome: "ok",
                    occurredAt: base.addingTimeInterval(10 + Double(index)))
            }
            try await repository.insert(many)
            let stored = try await repository.recent(memberID: memberID, limit: 300)
            #expect(stored.count == 251)
            #expect(stored.first?.deviceThumbprint == "t249")
            // An entry of a GUID that is no member is skipped; the rest of its batch is written.
            let ghost = VaultAccessEntry(
                memberID: UUID().uuidString.lowercased(), deviceThumbprint: nil, handlerID: "echo", outcome: "ok",
                occurredAt: base)
            let real = VaultAccessEntry(
                memberID: memberID, deviceThumbprint: "kept", handlerID: "echo", outcome: "ok", occurredAt: base)
            #expect(try await repository.insert([ghost, real]) == 1)
            #expect(try await repository.recent(memberID: memberID, limit: 300).count == 252)
            // At most 100 per member are kept: the newest.
            #expect(try await repository.prune(before: base, maxPerMember: 100) == 152)
            let kept = try await repository.recent(memberID: memberID, limit: 300)
            #expect(kept.count == 100)
            #expect(kept.last?.deviceThumbprint == "t150")
        }
    }
}
