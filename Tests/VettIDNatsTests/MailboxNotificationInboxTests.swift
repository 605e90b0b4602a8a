// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing
import VettIDClient
import VettIDCore
import VettIDMessaging
import VettIDNats

/// What a notification extension keeps for the app, and what it shows (docs/protocol.md 7.6).
@Suite struct MailboxNotificationInboxTests {
    func notice(_ id: String = MailboxNotice.newID(), kind: String = "login") -> MailboxNotice {
        MailboxNotice(
            id: id, kind: .securityEvent, sentAt: 1_764_374_400_123,
            securityEvent: .init(kind: kind, occurredAt: 1_764_374_400_000, ip: "127.0.0.1"))
    }

    @Test func keptNoticesComeBackInOrderOnceAndSurviveANewInbox() async throws {
        let store = InMemorySecureStore()
        let inbox = MailboxNotificationInbox(store: store)
        let first = notice()
        let second = notice()
        try await inbox.keep(first)
        try await inbox.keep(second)
        try await inbox.keep(first)
        #expect(await inbox.peek().map(\.id) == [first.id, second.id])
        // Another process (the app) reads what the extension kept.
        let appSide = MailboxNotificationInbox(store: store)
        #expect(await appSide.peek() == [first, second])
        try await appSide.remove(first: 1)
        #expect(await inbox.peek().map(\.id) == [second.id])
        try await appSide.remove(first: 5)
        #expect(await inbox.peek().isEmpty)
        #expect(try await store.data(forKey: inbox.storageKey) == nil, "an empty inbox leaves nothing in the store")
    }

    @Test func theOldestGoFirstBeyondTheCapacityAndAnUnreadableItemIsNone() async throws {
        let store = InMemorySecureStore()
        let inbox = MailboxNotificationInbox(store: store, capacity: 3)
        let notices = (0..<5).map { _ in notice() }
        for notice in notices { try await inbox.keep(notice) }
        #expect(await inbox.peek().map(\.id) == notices.suffix(3).map(\.id))
        try await store.set(Data("not json".utf8), forKey: inbox.storageKey)
        #expect(await inbox.peek().isEmpty)
    }

    @Test func aStoreThatRefusesWritesIsATypedError() async throws {
        let inbox = MailboxNotificationInbox(store: RefusingStore())
        await #expect(throws: APIError.self) { try await inbox.keep(notice()) }
    }

    @Test func theContentNamesTheNewestNoticeAndHowManyArrived() throws {
        #expect(MailboxNotificationContent.describing([], title: "VettID") == nil)
        let one = notice(kind: "login")
        let single = try #require(MailboxNotificationContent.describing([one], title: "VettID"))
        #expect(single.title == "VettID" && single.count == 1 && single.body == one.summary)
        let newest = notice(kind: "device_revoked")
        let several = try #require(MailboxNotificationContent.describing([one, newest], title: "Vault"))
        #expect(several.count == 2)
        #expect(several.body.hasPrefix("2 new messages") && several.body.hasSuffix(newest.summary))
    }

    /// A store whose writes fail.
    struct RefusingStore: SecureStore {
        struct Refused: Error {}
        func data(forKey key: String) async throws -> Data? { nil }
        func set(_ data: Data, forKey key: String) async throws { throw Refused() }
        func removeValue(forKey key: String) async throws { throw Refused() }
        func setValues(_ values: [String: Data?]) async throws { throw Refused() }
    }
}
