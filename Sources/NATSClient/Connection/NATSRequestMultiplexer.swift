// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// Request/reply over one wildcard inbox subscription, as a pure value: each request gets a reply subject
// `<prefix><token>` under the connection's one inbox, and an answer is routed to its waiter by the token.
//
// Tokens are a counter written in base 36 and read back from the answer's subject as a number: an answer is matched
// by comparing its subject's UTF-8 with the prefix and hashing one integer, without `String` index walks or
// `Substring` hashing (a vault app's inbox prefix is about 60 bytes).

/// Pending requests of one connection and the inbox they share.
struct NATSRequestMultiplexer<Waiter> {
    /// The inbox: reply subjects are `prefix` + token; `sid` is its wildcard subscription.
    private(set) var inbox: (prefix: String, sid: UInt64)?
    private var pending: [UInt64: Waiter] = [:]
    private var nextToken: UInt64 = 0

    /// Requests waiting for an answer.
    var count: Int { pending.count }

    /// Sets the inbox (once, before the first request).
    mutating func open(prefix: String, sid: UInt64) {
        precondition(inbox == nil, "the inbox is opened once")
        inbox = (prefix, sid)
    }

    /// Registers `waiter` under a fresh token; returns the reply subject to publish with and the token.
    mutating func register(_ waiter: Waiter) -> (replySubject: String, token: UInt64) {
        guard let inbox else { preconditionFailure("open the inbox before the first request") }
        nextToken += 1
        pending[nextToken] = waiter
        return (inbox.prefix + String(nextToken, radix: 36), nextToken)
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

    /// The token of a reply subject under this inbox; `nil` for any other subject, and for a last token that is
    /// not one this multiplexer writes (empty, a leading zero, a character outside `0-9a-z`, above `UInt64.max`).
    private func token(of subject: String) -> UInt64? {
        guard var prefix = inbox?.prefix else { return nil }
        // Compared and read as UTF-8 in place, on every answer: `utf8.starts(with:)` would walk both strings
        // through `String.Index`. `withUTF8` copies only a string without contiguous UTF-8.
        var subject = subject
        return subject.withUTF8 { subjectBytes in
            prefix.withUTF8 { prefixBytes in Self.token(of: subjectBytes, prefix: prefixBytes) }
        }
    }

    /// ``token(of:)`` over bytes: the subject must be `prefix` followed by the token's digits.
    private static func token(of subject: UnsafeBufferPointer<UInt8>, prefix: UnsafeBufferPointer<UInt8>) -> UInt64? {
        guard subject.count > prefix.count, subject.count - prefix.count <= maxTokenDigits else { return nil }
        let digitsStart = prefix.count
        guard subject[..<digitsStart].elementsEqual(prefix) else { return nil }
        guard subject.count - prefix.count == 1 || subject[digitsStart] != UInt8(ascii: "0") else { return nil }
        var token: UInt64 = 0
        for byte in subject[digitsStart...] {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte &- UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "z"): digit = byte &- UInt8(ascii: "a") &+ 10
            default: return nil
            }
            let (shifted, overflowed) = token.multipliedReportingOverflow(by: 36)
            let (sum, carried) = shifted.addingReportingOverflow(UInt64(digit))
            guard !overflowed, !carried else { return nil }
            token = sum
        }
        return token
    }

    /// The most base-36 digits a token has (`UInt64.max` has 13).
    private static var maxTokenDigits: Int { 13 }

    /// Stops waiting for `token`; returns its waiter if it was still waiting.
    mutating func remove(_ token: UInt64) -> Waiter? {
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
