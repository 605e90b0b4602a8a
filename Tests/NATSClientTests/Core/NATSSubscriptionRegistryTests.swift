// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// The subscription registry and the request multiplexer are pure values: these tests drive them directly.

import NIOConcurrencyHelpers
import NIOCore
import Testing

@testable import NATSClient

/// A sink that stores up to `limit` messages and records whether it was finished.
private final class RecordingSink: NATSMessageSink {
    private let state = NIOLockedValueBox((messages: [String](), finished: false, waiting: true))
    let limit: Int

    init(limit: Int = 100) { self.limit = limit }

    func enqueue(_ message: NATSMessage) -> NATSMessageQueue.EnqueueResult {
        state.withLockedValue { state in
            if state.finished { return .terminated }
            if state.messages.count >= limit { return .dropped }
            state.messages.append(message.payloadString)
            defer { state.waiting = false }
            return .enqueued(needsWake: state.waiting)
        }
    }

    func wake(followUp: Bool) -> Bool {
        state.withLockedValue { $0.waiting = false }
        return false
    }

    func finish() { state.withLockedValue { $0.finished = true } }
    var messages: [String] { state.withLockedValue { $0.messages } }
    var finished: Bool { state.withLockedValue { $0.finished } }
    func consumerWaits() { state.withLockedValue { $0.waiting = true } }
}

private func message(_ text: String, on subject: String = "s") -> NATSMessage {
    NATSMessage(subject: subject, payload: ByteBuffer(string: text))
}

@Suite struct NATSSubscriptionRegistryTests {
    @Test func idsAreSequentialAndTheSinkKnowsItsOwn() {
        var registry = NATSSubscriptionRegistry()
        let seen = NIOLockedValueBox<UInt64?>(nil)
        let first = registry.add(subject: "a", queue: nil, dropCounter: nil) { sid in
            seen.withLockedValue { $0 = sid }
            return RecordingSink()
        }
        let inbox = registry.addRequestInbox(subject: "_INBOX.x.*")
        let second = registry.add(subject: "b", queue: "q", dropCounter: nil) { _ in RecordingSink() }
        #expect([first.sid, inbox, second.sid] == [1, 2, 3])
        #expect(seen.withLockedValue { $0 } == 1)
        #expect(registry.subscriberIDs == [1, 3])
    }

    @Test func deliveryWakesOncePerBatchAndRoutesTheInbox() {
        var registry = NATSSubscriptionRegistry()
        let (sid, sink) = registry.add(subject: "a", queue: nil, dropCounter: nil) { _ in RecordingSink() }
        let inbox = registry.addRequestInbox(subject: "_INBOX.x.*")
        guard case .delivered(let wake, nil) = registry.deliver(message("1"), to: sid) else {
            Issue.record("not delivered")
            return
        }
        #expect(wake === sink)
        guard case .delivered(nil, nil) = registry.deliver(message("2"), to: sid) else {
            Issue.record("a second wake-up in the same batch")
            return
        }
        guard case .requestInbox = registry.deliver(message("r"), to: inbox) else {
            Issue.record("the inbox's message was not handed to the multiplexer")
            return
        }
        guard case .unknown = registry.deliver(message("x"), to: 99) else {
            Issue.record("an unknown id was delivered")
            return
        }
        #expect(sink.messages == ["1", "2"])
    }

    @Test func aSlowConsumerIsReportedOncePerEpisodeAndDropsAreCounted() {
        var registry = NATSSubscriptionRegistry()
        let counter = NATSDropCounter()
        let (sid, sink) = registry.add(subject: "ticks", queue: nil, dropCounter: counter) { _ in
            RecordingSink(limit: 1)
        }
        _ = registry.deliver(message("1"), to: sid)
        var reports = 0
        for index in 2...5 {
            if case .delivered(_, let slow?) = registry.deliver(message("\(index)"), to: sid) {
                reports += 1
                #expect(slow.code == .slowConsumer)
            }
        }
        #expect(reports == 1)
        #expect(counter.value == 4)
        #expect(sink.messages == ["1"])
    }

    @Test func autoUnsubscribeEndsTheSubscriptionAtItsCountAndResubscribesWithTheRest() {
        var registry = NATSSubscriptionRegistry()
        let (sid, sink) = registry.add(subject: "a", queue: "q", dropCounter: nil) { _ in RecordingSink() }
        _ = registry.deliver(message("1"), to: sid)
        guard case .limited(3) = registry.unsubscribe(sid, after: 3) else {
            Issue.record("the limit was not kept")
            return
        }
        #expect(
            registry.resubscribeCommands() == [
                .subscribe(subject: "a", queue: "q", sid: sid), .unsubscribe(sid: sid, max: 2),
            ])
        _ = registry.deliver(message("2"), to: sid)
        #expect(!sink.finished)
        _ = registry.deliver(message("3"), to: sid)
        #expect(sink.finished)
        #expect(!registry.contains(sid))
        #expect(registry.unsubscribe(sid, after: nil) == nil)
    }

    @Test func unsubscribingBelowWhatWasDeliveredRemovesAtOnce() {
        var registry = NATSSubscriptionRegistry()
        let (sid, sink) = registry.add(subject: "a", queue: nil, dropCounter: nil) { _ in RecordingSink() }
        _ = registry.deliver(message("1"), to: sid)
        _ = registry.deliver(message("2"), to: sid)
        guard case .removed(let removed?) = registry.unsubscribe(sid, after: 2) else {
            Issue.record("not removed")
            return
        }
        #expect(removed === sink)
        #expect(registry.count == 0)
    }

    @Test func drainKeepsTheRequestInbox() {
        var registry = NATSSubscriptionRegistry()
        _ = registry.add(subject: "a", queue: nil, dropCounter: nil) { _ in RecordingSink() }
        let inbox = registry.addRequestInbox(subject: "_INBOX.x.*")
        _ = registry.add(subject: "b", queue: nil, dropCounter: nil) { _ in RecordingSink() }
        #expect(registry.removeSubscribers().count == 2)
        #expect(registry.contains(inbox) && registry.count == 1)
        #expect(registry.removeAll().isEmpty)
        #expect(registry.count == 0)
    }
}

@Suite struct NATSRequestMultiplexerTests {
    @Test func answersFindTheirWaiterOnceByToken() {
        var requests = NATSRequestMultiplexer<String>()
        requests.open(prefix: "_INBOX.abc.", sid: 7)
        let first = requests.register("first")
        let second = requests.register("second")
        #expect(first.replySubject == "_INBOX.abc.\(first.token)")
        #expect(first.token != second.token)
        #expect(requests.answer(to: second.replySubject) == "second")
        #expect(requests.answer(to: second.replySubject) == nil, "a second answer finds nobody")
        #expect(requests.answer(to: "_INBOX.other.\(first.token)") == nil, "another inbox")
        #expect(requests.answer(to: "elsewhere") == nil)
        #expect(requests.count == 1)
        #expect(requests.remove(first.token) == "first")
        #expect(requests.answer(to: first.replySubject) == nil, "a timed-out request is not answered")
    }

    @Test func onlyTheTokensItWritesAreRead() {
        var requests = NATSRequestMultiplexer<Int>()
        requests.open(prefix: "OwnerSpace.0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0.forApp.inbox.", sid: 3)
        var subjects: [String] = []
        for value in 1...40 { subjects.append(requests.register(value).replySubject) }
        #expect(subjects[35].hasSuffix(".10"), "token 36 is written in base 36")
        let prefix = "OwnerSpace.0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0.forApp.inbox."
        for subject in [
            prefix, prefix + "010", prefix + "1A", prefix + "1.2", prefix + "-1", prefix + " 1",
            prefix + "zzzzzzzzzzzzz", prefix + "3w5e11264sgsg", prefix + "00000000000001",
            "OwnerSpace.0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f1.forApp.inbox.10", String(prefix.dropLast()) + "10",
        ] {
            #expect(requests.answer(to: subject) == nil, "\(subject)")
        }
        #expect(requests.count == 40, "no refused subject took a waiter")
        #expect(requests.answer(to: prefix + "10") == 36)
        #expect(requests.answer(to: subjects[0]) == 1)
        #expect(requests.answer(to: subjects[39]) == 40)
        #expect(requests.count == 37)
    }

    @Test func expiredWaitersAreRemovedAndTheEarliestRemainingIsKnown() {
        var requests = NATSRequestMultiplexer<Int>()
        requests.open(prefix: "_INBOX.t.", sid: 1)
        #expect(requests.minimum(of: { $0 }) == nil)
        let subjects = [30, 10, 40, 20].map { requests.register($0).replySubject }
        #expect(requests.minimum(of: { $0 }) == 10)
        #expect(requests.removeAll { $0 <= 20 }.sorted() == [10, 20])
        #expect(requests.minimum(of: { $0 }) == 30)
        #expect(requests.answer(to: subjects[1]) == nil, "a timed-out request is not answered")
        #expect(requests.isAbandoned(subjects[1]) && !requests.isAbandoned(subjects[0]))
        #expect(!requests.isAbandoned("_INBOX.other.1"), "another inbox's subject is not ours to drop")
        #expect(requests.answer(to: subjects[0]) == 30)
    }

    @Test func closingHandsBackEveryWaiter() {
        var requests = NATSRequestMultiplexer<Int>()
        requests.open(prefix: "_INBOX.z.", sid: 1)
        for value in 1...5 { _ = requests.register(value) }
        #expect(requests.removeAll().sorted() == [1, 2, 3, 4, 5])
        #expect(requests.count == 0)
    }
}
