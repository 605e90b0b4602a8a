// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import NIOConcurrencyHelpers

/// Sessions this instance found active, with their member, remembered for a short `lifetime` so an authenticated
/// request does not read the store every time.
///
/// The bound it trades: this instance forgets a session at once when it ends it (logout, refresh-token reuse,
/// binding mismatch: ``AuthService`` calls ``forget(sessionID:)``); a session ended through *another* instance
/// stays usable here for at most `lifetime` (2 s by default). A session's own expiry is checked on every use.
final class LiveSessionCache: Sendable {
    private struct Entry {
        let session: MemberSession
        let member: Member
        let fetchedAt: Date
    }

    /// How long a lookup is trusted; zero turns the cache off.
    let lifetime: TimeInterval
    let capacity: Int
    private let entries = NIOLockedValueBox<[UUID: Entry]>([:])

    init(lifetime: TimeInterval, capacity: Int = 100_000) {
        self.lifetime = max(0, lifetime)
        self.capacity = max(1, capacity)
    }

    /// The remembered session and member, if looked up less than `lifetime` ago and still active at `now`.
    func lookup(sessionID: UUID, now: Date) -> (session: MemberSession, member: Member)? {
        guard lifetime > 0 else { return nil }
        return entries.withLockedValue { entries in
            guard let entry = entries[sessionID] else { return nil }
            guard now.timeIntervalSince(entry.fetchedAt) < lifetime, now >= entry.fetchedAt,
                entry.session.isActive(at: now)
            else {
                entries[sessionID] = nil
                return nil
            }
            return (entry.session, entry.member)
        }
    }

    /// Remembers an active session read from the store at `now`.
    func remember(session: MemberSession, member: Member, now: Date) {
        guard lifetime > 0 else { return }
        entries.withLockedValue { entries in
            if entries.count >= capacity {
                entries = entries.filter { now.timeIntervalSince($0.value.fetchedAt) < lifetime }
                if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            }
            entries[session.id] = Entry(session: session, member: member, fetchedAt: now)
        }
    }

    /// Forgets a session this instance just ended.
    func forget(sessionID: UUID) {
        _ = entries.withLockedValue { $0.removeValue(forKey: sessionID) }
    }
}
