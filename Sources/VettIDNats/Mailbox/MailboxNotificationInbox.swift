// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
public import VettIDClient
public import VettIDMessaging

/// Notices a Notification Service Extension took from the mailbox, kept in the store the app and the extension
/// share (the app group's) until the app hands them to its ``NatsConnectionManager/mailboxHandler``.
///
/// The extension acknowledges what it read (a message read but not acknowledged would come back to the extension on
/// every push, and `max_deliver` would end it before the app ever saw it), so the notice lives on here: the manager
/// hands these over first, in the order they were kept, then what still waits in the mailbox. At most ``capacity``
/// are kept (the oldest go first); a notice kept twice is kept once.
public actor MailboxNotificationInbox {
    /// The store key: `<prefix>.mailbox.inbox`.
    public nonisolated let storageKey: String
    /// Notices kept at most.
    public nonisolated let capacity: Int
    private let store: any SecureStore

    /// An inbox in `store` (the app group's, so the app and its extension both reach it).
    public init(store: any SecureStore, keyPrefix: String = "vettid", capacity: Int = 256) {
        self.store = store
        self.storageKey = "\(keyPrefix).mailbox.inbox"
        self.capacity = max(1, capacity)
    }

    /// Keeps `notice` after the ones kept before.
    /// - Throws: `APIError` `storage_failed` when the store refuses the write (the extension then leaves the message
    ///   unacknowledged in the mailbox).
    public func keep(_ notice: MailboxNotice) async throws(APIError) {
        var notices = await load()
        guard !notices.contains(where: { $0.id == notice.id }) else { return }
        notices.append(notice)
        try await save(Array(notices.suffix(capacity)))
    }

    /// The kept notices, oldest first, without removing them.
    public func peek() async -> [MailboxNotice] { await load() }

    /// Removes the first `count` kept notices (those handed to the app).
    public func remove(first count: Int) async throws(APIError) {
        let notices = await load()
        try await save(Array(notices.dropFirst(max(0, count))))
    }

    private func load() async -> [MailboxNotice] {
        guard let data = try? await store.data(forKey: storageKey),
            let encoded = try? JSONDecoder().decode([Data].self, from: data)
        else { return [] }
        // A notice the SDK cannot read any more is dropped rather than blocking the rest.
        return encoded.compactMap { try? MailboxNotice.decode($0) }
    }

    private func save(_ notices: [MailboxNotice]) async throws(APIError) {
        do {
            if notices.isEmpty {
                try await store.removeValue(forKey: storageKey)
            } else {
                try await store.set(try JSONEncoder().encode(notices.map { try $0.encoded() }), forKey: storageKey)
            }
        } catch {
            throw APIError(
                code: .storageFailed, description: "The mailbox notices could not be kept for the app.",
                underlying: error)
        }
    }
}
