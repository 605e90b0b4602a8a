// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Testing
import VettIDNats
import VettIDTestSupport

/// A Notification Service Extension's one answer: the fetched text, or the push as it came when the system's time
/// runs out first (docs/protocol.md 7.6).
@Suite("Mailbox notification run")
struct MailboxNotificationRunTests {
    static let content = MailboxNotificationContent(title: "VettID", body: "New sign-in", count: 1)

    /// The answers a run delivered, in order.
    final class Deliveries: Sendable {
        let stream: AsyncStream<MailboxNotificationContent?>
        let continuation: AsyncStream<MailboxNotificationContent?>.Continuation
        init() { (stream, continuation) = AsyncStream.makeStream(of: MailboxNotificationContent?.self) }
        var deliver: @Sendable (MailboxNotificationContent?) -> Void { { [continuation] in continuation.yield($0) } }
        /// Everything delivered so far (the stream is finished first).
        func all() async -> [MailboxNotificationContent?] {
            continuation.finish()
            var answers: [MailboxNotificationContent?] = []
            for await answer in stream { answers.append(answer) }
            return answers
        }
    }

    /// A fetch that waits for its gate, counting its starts and seeing its cancellation.
    actor Fetch {
        let gate = AsyncGate()
        private(set) var starts = 0
        private(set) var wasCancelled = false
        let answer: MailboxNotificationContent?
        init(answer: MailboxNotificationContent?) { self.answer = answer }
        func run() async -> MailboxNotificationContent? {
            starts += 1
            await withTaskCancellationHandler {
                await gate.wait()
            } onCancel: { [gate] in
                Task { await gate.open() }
            }
            wasCancelled = Task.isCancelled
            return answer
        }
    }

    @Test("the fetched text is delivered once; a later expiry delivers nothing more")
    func fetchedTextIsDelivered() async {
        let (fetch, deliveries) = (Fetch(answer: Self.content), Deliveries())
        let run = MailboxNotificationRun(fetch: { await fetch.run() }, deliver: deliveries.deliver)
        run.start()
        run.start()
        await fetch.gate.open()
        #expect(await eventually { run.isDelivered })
        run.expire()
        #expect(await deliveries.all() == [Self.content])
        #expect(await fetch.starts == 1)
    }

    @Test("a fetch with nothing to show delivers nil: the push's own text")
    func nothingToShow() async {
        let (fetch, deliveries) = (Fetch(answer: nil), Deliveries())
        let run = MailboxNotificationRun(fetch: { await fetch.run() }, deliver: deliveries.deliver)
        run.start()
        await fetch.gate.open()
        #expect(await eventually { run.isDelivered })
        #expect(await deliveries.all() == [nil])
    }

    @Test("the time runs out first: nil at once, the fetch is cancelled and its late answer dropped")
    func expiryWins() async {
        let (fetch, deliveries) = (Fetch(answer: Self.content), Deliveries())
        let run = MailboxNotificationRun(fetch: { await fetch.run() }, deliver: deliveries.deliver)
        run.start()
        #expect(await eventually { await fetch.starts == 1 })
        run.expire()
        #expect(run.isDelivered)
        #expect(await eventually { await fetch.wasCancelled })
        // Give the cancelled fetch's task the chance to (wrongly) deliver its answer.
        try? await Task.sleep(for: .milliseconds(50))
        #expect(await deliveries.all() == [nil])
    }

    @Test("an expiry before the start delivers nil, and the fetch never starts")
    func expiryBeforeStart() async {
        let (fetch, deliveries) = (Fetch(answer: Self.content), Deliveries())
        let run = MailboxNotificationRun(fetch: { await fetch.run() }, deliver: deliveries.deliver)
        run.expire()
        run.start()
        try? await Task.sleep(for: .milliseconds(20))
        #expect(await fetch.starts == 0)
        #expect(await deliveries.all() == [nil])
    }
}
