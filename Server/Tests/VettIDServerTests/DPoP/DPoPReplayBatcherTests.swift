// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import NIOConcurrencyHelpers
import Testing
import VettIDTestSupport
import VettIDVerification

@testable import VettIDServer

/// Group commit of replay inserts: the batching decisions, the queue over a write that can be held, and the real
/// statement on SQLite and PostgreSQL under concurrent copies of the same proofs.
@Suite struct DPoPReplayBatcherTests {
    typealias Entry = DPoPReplayBatch.Entry

    static func key(_ jti: String) -> DPoPReplayKey {
        DPoPReplayKey(normalizedTargetURI: "https://api.vettid.test/x", jti: jti)
    }

    @Test func aBatchWritesEachHashOnceAndAcceptsOnlyItsFirstRecordedCopy() {
        let batch = DPoPReplayBatch(entries: [
            Entry(hash: "a", expiresAt: 10), Entry(hash: "b", expiresAt: 10), Entry(hash: "a", expiresAt: 10),
            Entry(hash: "c", expiresAt: 10),
        ])
        #expect(batch.unique.map(\.hash) == ["a", "b", "c"])
        // The store recorded a and c; b was live there already (a replay from elsewhere).
        #expect(batch.outcomes(recorded: ["a", "c"]) == [true, false, false, true])
        #expect(batch.outcomes(recorded: nil) == [false, false, false, false], "a failed write refuses every entry")
    }

    /// While one write is held, every insert that arrives waits and goes into the next single write.
    @Test func insertsArrivingDuringAWriteShareTheNextOne() async {
        let gate = AsyncGate()
        let writes = NIOLockedValueBox<[[String]]>([])
        let batcher = DPoPReplayBatcher { entries, _ in
            writes.withLockedValue { $0.append(entries.map(\.hash)) }
            if entries.first?.hash == "first" { await gate.wait() }
            return Set(entries.map(\.hash))
        }
        async let first = batcher.insert(Entry(hash: "first", expiresAt: 1), nowSeconds: 0)
        #expect(await eventually { writes.withLockedValue { $0.count } == 1 }, "the first write started")
        let results = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<20 {
                group.addTask { await batcher.insert(Entry(hash: "p\(index % 10)", expiresAt: 1), nowSeconds: 0) }
            }
            #expect(await eventually { batcher.waitingCount == 20 }, "all twenty are queued")
            await gate.open()
            var accepted = 0
            for await result in group where result { accepted += 1 }
            return accepted
        }
        #expect(await first)
        #expect(results == 10, "ten distinct proofs, each sent twice: one copy of each is accepted")
        let recorded = writes.withLockedValue { $0 }
        #expect(recorded.count == 2, "one write for the first, one for the twenty that waited: \(recorded)")
        #expect(recorded.last?.count == 10, "duplicates are not written twice")
    }

    /// The real statement: 40 concurrent inserts of 20 proofs (each twice) against a store that already holds one
    /// live and one expired entry.
    @Test(arguments: TestEngine.available)
    func concurrentCopiesOfAProofAreAcceptedOnceByTheStore(engine: TestEngine) async throws {
        try await withTestStore(engine) { store in
            let now = Date(timeIntervalSince1970: 1_800_000_000)
            let cache = SQLDPoPReplayCache(store: store)
            #expect(await cache.insert(Self.key("live"), expiresAt: now + 60, now: now))
            #expect(await cache.insert(Self.key("old"), expiresAt: now - 10 + 1, now: now - 10))
            let jtis = (0..<20).map { "jti-\($0)" } + ["live", "old"]
            let accepted = await withTaskGroup(of: (String, Bool).self) { group in
                for jti in jtis + jtis {
                    group.addTask { (jti, await cache.insert(Self.key(jti), expiresAt: now + 60, now: now)) }
                }
                var accepted: [String: Int] = [:]
                for await (jti, ok) in group where ok { accepted[jti, default: 0] += 1 }
                return accepted
            }
            for jti in jtis.dropLast(2) { #expect(accepted[jti] == 1, "\(jti) accepted exactly once") }
            #expect(accepted["live"] == nil, "a live entry refuses every copy")
            #expect(accepted["old"] == 1, "an expired entry is taken over once")
            #expect(await cache.contains(Self.key("jti-7"), now: now))
        }
    }
}
