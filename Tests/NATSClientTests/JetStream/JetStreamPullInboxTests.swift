// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import NIOCore
import Testing

@testable import NATSClient

/// The pull inbox as the connection drives it (enqueue under its lock, wake at the end of a read) and as the fetch
/// waits on it: when the fetch is woken, and what it learns.
@Suite struct JetStreamPullInboxTests {
    private static let subject = "_INBOX.pull1"

    private func delivery(_ sequence: Int) -> NATSMessage {
        NATSMessage(
            subject: "mb.g1.d1", replyTo: "$JS.ACK.MAILBOX.d1.1.\(sequence).\(sequence).1795890431033768813.0",
            payload: ByteBuffer(string: "m\(sequence)"))
    }

    private func status(_ code: Int, _ description: String, on subject: String = Self.subject) -> NATSMessage {
        NATSMessage(
            subject: subject, headers: NATSHeaders(status: code, statusDescription: description), payload: ByteBuffer())
    }

    /// A fetch waiting on `inbox`, started and seen waiting.
    private func waiting(on inbox: JetStreamPullInbox) async throws -> Task<JetStreamPullInbox.Update, Never> {
        let task = Task { await inbox.next() }
        for _ in 0..<10_000 where !inbox.isWaiting { await Task.yield() }
        try #require(inbox.isWaiting, "the fetch never waited")
        return task
    }

    private func needsWake(_ result: NATSMessageQueue.EnqueueResult) -> Bool? {
        guard case .enqueued(let needsWake) = result else { return nil }
        return needsWake
    }

    @Test func deliveriesWakeTheFetchOnceWhenTheBatchIsComplete() async throws {
        let inbox = JetStreamPullInbox(subject: Self.subject, batch: 3, wakesOnHearing: false)
        let fetch = try await waiting(on: inbox)
        #expect(needsWake(inbox.enqueue(delivery(1))) == false)
        #expect(needsWake(inbox.enqueue(delivery(2))) == false)
        #expect(!inbox.wake(followUp: false))
        #expect(inbox.isWaiting, "two of three do not wake the fetch")
        #expect(needsWake(inbox.enqueue(delivery(3))) == true)
        #expect(inbox.isWaiting, "nothing is handed over before the read is complete")
        _ = inbox.wake(followUp: false)
        let update = await fetch.value
        #expect(update.deliveries.map(\.payloadString) == ["m1", "m2", "m3"])
        #expect(update.heard && update.ending == nil && !update.closed && !update.reconnected)
    }

    @Test func aStatusEndsTheWaitAndOnlyTheFirstCounts() async throws {
        let inbox = JetStreamPullInbox(subject: Self.subject, batch: 10, wakesOnHearing: false)
        let fetch = try await waiting(on: inbox)
        _ = inbox.enqueue(delivery(1))
        #expect(needsWake(inbox.enqueue(status(408, "Request Timeout"))) == true)
        #expect(needsWake(inbox.enqueue(status(409, "Consumer Deleted"))) == false, "one wake per read")
        _ = inbox.wake(followUp: false)
        let update = await fetch.value
        #expect(update.deliveries.count == 1)
        guard case .end? = update.ending else {
            Issue.record("the 408 did not end the pull: \(String(describing: update.ending))")
            return
        }
    }

    @Test func heartbeatsWakeTheFetchOnlyWhenItWatchesThem() async throws {
        let quiet = JetStreamPullInbox(subject: Self.subject, batch: 5, wakesOnHearing: false)
        let fetch = try await waiting(on: quiet)
        #expect(needsWake(quiet.enqueue(status(100, "Idle Heartbeat"))) == false)
        #expect(needsWake(quiet.enqueue(delivery(1))) == false)
        quiet.signal(.alarm)
        let update = await fetch.value
        #expect(update.alarm && update.heard && update.deliveries.count == 1)

        let watching = JetStreamPullInbox(subject: Self.subject, batch: 5, wakesOnHearing: true)
        let watcher = try await waiting(on: watching)
        #expect(needsWake(watching.enqueue(status(100, "Idle Heartbeat"))) == true)
        _ = watching.wake(followUp: false)
        let heard = await watcher.value
        #expect(heard.heard && heard.deliveries.isEmpty && heard.ending == nil)
    }

    @Test func whatArrivesWhileTheFetchIsBusyIsTakenAtItsNextWait() async {
        let inbox = JetStreamPullInbox(subject: Self.subject, batch: 2, wakesOnHearing: false)
        // No fetch waits: nothing to wake, but the batch is complete and the next wait returns at once.
        #expect(needsWake(inbox.enqueue(delivery(1))) == false)
        #expect(needsWake(inbox.enqueue(delivery(2))) == false)
        let update = await inbox.next()
        #expect(update.deliveries.count == 2)
        #expect(inbox.takeNow().deliveries.isEmpty, "taken once")
    }

    @Test func signalsAndTheEndWakeTheFetchAtOnce() async throws {
        let inbox = JetStreamPullInbox(subject: Self.subject, batch: 5, wakesOnHearing: false)
        var fetch = try await waiting(on: inbox)
        inbox.signal(.reconnected)
        #expect(await fetch.value.reconnected)
        fetch = try await waiting(on: inbox)
        inbox.finish()
        #expect(await fetch.value.closed)
        guard case .terminated = inbox.enqueue(delivery(1)) else {
            Issue.record("an ended inbox took a message")
            return
        }
    }

    @Test func cancellingTheWaitingFetchReturnsAtOnce() async throws {
        let inbox = JetStreamPullInbox(subject: Self.subject, batch: 5, wakesOnHearing: false)
        let fetch = try await waiting(on: inbox)
        fetch.cancel()
        #expect(await fetch.value.cancelled)
        // A task cancelled before it waits does not wait.
        let early = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await inbox.next()
        }
        #expect(await early.value.cancelled)
    }
}
