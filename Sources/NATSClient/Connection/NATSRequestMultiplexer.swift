// Request/reply over one wildcard inbox subscription, as a pure value: each request gets a reply subject
// `<prefix><token>` under the connection's one inbox, and an answer is routed to its waiter by the token.

/// Pending requests of one connection and the inbox they share.
struct NATSRequestMultiplexer<Waiter> {
    /// The inbox: reply subjects are `prefix` + token; `sid` is its wildcard subscription.
    private(set) var inbox: (prefix: String, sid: UInt64)?
    private var pending: [Substring: Waiter] = [:]
    private var nextToken: UInt64 = 0

    /// Requests waiting for an answer.
    var count: Int { pending.count }

    /// Sets the inbox (once, before the first request).
    mutating func open(prefix: String, sid: UInt64) {
        precondition(inbox == nil, "the inbox is opened once")
        inbox = (prefix, sid)
    }

    /// Registers `waiter` under a fresh token; returns the reply subject to publish with and the token.
    mutating func register(_ waiter: Waiter) -> (replySubject: String, token: Substring) {
        guard let inbox else { preconditionFailure("open the inbox before the first request") }
        nextToken += 1
        let token = Substring(String(nextToken, radix: 36))
        pending[token] = waiter
        return (inbox.prefix + token, token)
    }

    /// The waiter an answer on `subject` belongs to, removed; `nil` for a subject outside the inbox or a
    /// request that no longer waits (answered, timed out or cancelled).
    mutating func answer(to subject: String) -> Waiter? {
        token(of: subject).flatMap { pending.removeValue(forKey: $0) }
    }

    /// Whether `subject` is a reply subject of this inbox whose request no longer waits (it timed out or was
    /// cancelled): a publish still queued with it need not go out.
    func isAbandoned(_ subject: String) -> Bool {
        token(of: subject).map { pending[$0] == nil } ?? false
    }

    /// The token of a reply subject under this inbox; `nil` for any other subject.
    private func token(of subject: String) -> Substring? {
        guard let inbox, subject.hasPrefix(inbox.prefix) else { return nil }
        return subject.dropFirst(inbox.prefix.count)
    }

    /// Stops waiting for `token`; returns its waiter if it was still waiting.
    mutating func remove(_ token: Substring) -> Waiter? {
        pending.removeValue(forKey: token)
    }

    /// The waiters that `isExpired`, removed (timed out).
    mutating func removeAll(where isExpired: (Waiter) -> Bool) -> [Waiter] {
        var removed: [Waiter] = []
        for (token, waiter) in pending where isExpired(waiter) {
            removed.append(waiter)
            pending.removeValue(forKey: token)
        }
        return removed
    }

    /// The smallest `key` of the waiting requests (the earliest deadline), or `nil` if none waits.
    func minimum<Key: Comparable>(of key: (Waiter) -> Key) -> Key? {
        pending.values.lazy.map(key).min()
    }

    /// Every waiter, removed (the connection closed).
    mutating func removeAll() -> [Waiter] {
        defer { pending.removeAll() }
        return Array(pending.values)
    }
}

extension NATSRequestMultiplexer: Sendable where Waiter: Sendable {}
