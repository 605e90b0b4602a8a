// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import NIOConcurrencyHelpers

/// Group commit for DPoP replay inserts: requests that arrive while a write is in flight are written together by the
/// next one, in one statement, and each waits for the write that holds its own entry.
///
/// The guarantee is unchanged (a request is answered only after the store accepted its `jti`, so a replay is refused
/// on every instance and after a restart); what changes is that 32 concurrent requests cost about two round trips
/// to the store instead of 32 serialised ones. There is no timer: a write starts as soon as the previous one ends, so
/// an idle server writes each entry at once.
///
/// The batching decisions are ``DPoPReplayBatch`` (a plain value); this type only holds the queue and the waiters.
final class DPoPReplayBatcher: Sendable {
    /// Writes entries in one statement; returns the hashes it recorded, or `nil` when the write failed.
    typealias Write = @Sendable (_ entries: [DPoPReplayBatch.Entry], _ nowSeconds: Int64) async -> Set<String>?

    private struct Waiter: Sendable {
        let entry: DPoPReplayBatch.Entry
        let nowSeconds: Int64
        let continuation: CheckedContinuation<Bool, Never>
    }

    private struct Queue: Sendable {
        var waiting: [Waiter] = []
        var writing = false
    }

    let maxBatch: Int
    private let write: Write
    private let queue = NIOLockedValueBox(Queue())

    init(maxBatch: Int = 256, write: @escaping Write) {
        self.maxBatch = max(1, maxBatch)
        self.write = write
    }

    /// How many inserts wait for a write (for tests and metrics).
    var waitingCount: Int { queue.withLockedValue { $0.waiting.count } }

    /// Records `entry`; `true` when this call recorded it (not a replay and the write succeeded).
    func insert(_ entry: DPoPReplayBatch.Entry, nowSeconds: Int64) async -> Bool {
        await withCheckedContinuation { continuation in
            let leads = queue.withLockedValue { queue -> Bool in
                queue.waiting.append(Waiter(entry: entry, nowSeconds: nowSeconds, continuation: continuation))
                guard !queue.writing else { return false }
                queue.writing = true
                return true
            }
            if leads { Task { await self.drain() } }
        }
    }

    /// Writes batches until nothing waits.
    private func drain() async {
        while true {
            let waiters = queue.withLockedValue { queue -> [Waiter] in
                guard !queue.waiting.isEmpty else {
                    queue.writing = false
                    return []
                }
                let taken = Array(queue.waiting.prefix(maxBatch))
                queue.waiting.removeFirst(taken.count)
                return taken
            }
            if waiters.isEmpty { return }
            let batch = DPoPReplayBatch(entries: waiters.map(\.entry))
            let recorded = await write(batch.unique, waiters.map(\.nowSeconds).min() ?? 0)
            let outcomes = batch.outcomes(recorded: recorded)
            for (waiter, accepted) in zip(waiters, outcomes) { waiter.continuation.resume(returning: accepted) }
        }
    }
}

/// One batch of replay inserts: which entries go to the store, and what each request is told.
struct DPoPReplayBatch: Sendable, Equatable {
    /// A proof's replay key (hex of its digest) and when it may be forgotten.
    struct Entry: Sendable, Hashable {
        let hash: String
        let expiresAt: Int64
    }

    /// The entries in arrival order.
    let entries: [Entry]

    /// The entries to write: the first of each hash (a statement may not touch a row twice, and a second copy of a
    /// proof in the same batch is a replay of the first).
    var unique: [Entry] {
        var seen = Set<String>()
        return entries.filter { seen.insert($0.hash).inserted }
    }

    /// Per entry, in arrival order: accepted when its hash was recorded and it is the first entry with that hash.
    /// A failed write (`nil`) refuses every entry: the cache fails closed.
    func outcomes(recorded: Set<String>?) -> [Bool] {
        guard let recorded else { return entries.map { _ in false } }
        var seen = Set<String>()
        return entries.map { seen.insert($0.hash).inserted && recorded.contains($0.hash) }
    }
}
