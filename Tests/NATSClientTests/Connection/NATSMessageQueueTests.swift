// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import NIOCore
import Testing
import VettIDTestSupport

@testable import NATSClient

@Suite struct NATSMessageQueueTests {
    func message(_ text: String) -> NATSMessage { NATSMessage(subject: "s", payload: ByteBuffer(string: text)) }

    @Test func bufferedMessagesComeOutInOneBatch() async {
        let queue = NATSMessageQueue(limit: 10) {}
        for index in 0..<3 {
            guard case .enqueued(let needsWake) = queue.enqueue(message("\(index)")) else {
                Issue.record("not enqueued")
                return
            }
            #expect(!needsWake)  // nobody is waiting yet
        }
        let batch = await queue.nextBatch()
        #expect(batch.map { Array($0.map(\.payloadString)) } == ["0", "1", "2"])
    }

    /// The iterator's emptied batch goes back to the queue: exchanged for the buffered messages, or kept as the
    /// spare that the next batch is collected in while the iterator waits. Messages keep their order either way.
    @Test func theIteratorsEmptiedBatchIsReused() async throws {
        let queue = NATSMessageQueue(limit: 1000) {}
        for index in 0..<100 { _ = queue.enqueue(message("\(index)")) }
        #expect(queue.capacities.buffer == 128)  // grown from 16 by doubling
        var batch = CircularBuffer<NATSMessage>(initialCapacity: 1)
        #expect(await queue.nextBatch(into: &batch))
        #expect(batch.map(\.payloadString) == (0..<100).map { "\($0)" })
        #expect(queue.capacities.buffer == 1)  // the iterator's storage, exchanged
        while batch.popFirst() != nil {}

        for index in 100..<103 { _ = queue.enqueue(message("\(index)")) }
        #expect(await queue.nextBatch(into: &batch))
        #expect(batch.map(\.payloadString) == ["100", "101", "102"])
        #expect(queue.capacities.buffer == 128)  // the emptied batch of 100, not a new buffer

        let consumer = Task {
            var own = CircularBuffer<NATSMessage>(initialCapacity: 64)
            let more = await queue.nextBatch(into: &own)
            return (more, own.map(\.payloadString))
        }
        try #require(await eventually(poll: .milliseconds(2)) { queue.hasWaiter }, "the consumer never waited")
        #expect(queue.capacities.spare == 64)  // the waiting iterator's storage
        _ = queue.enqueue(message("x"))
        queue.wake()
        let (more, received) = await consumer.value
        #expect(more && received == ["x"])
        #expect(queue.capacities.buffer == 64 && queue.capacities.spare == nil)  // the spare became the buffer
    }

    @Test func limitDropsNewMessages() {
        let queue = NATSMessageQueue(limit: 2) {}
        _ = queue.enqueue(message("a"))
        _ = queue.enqueue(message("b"))
        guard case .dropped = queue.enqueue(message("c")) else {
            Issue.record("the third message was not dropped")
            return
        }
    }

    @Test func waitingConsumerIsWokenOncePerBatch() async throws {
        let queue = NATSMessageQueue(limit: 10) {}
        let consumer = Task { await queue.nextBatch().map { Array($0.map(\.payloadString)) } }
        try #require(await eventually(poll: .milliseconds(2)) { queue.hasWaiter }, "the consumer never waited")
        guard case .enqueued(let first) = queue.enqueue(message("a")),
            case .enqueued(let second) = queue.enqueue(message("b"))
        else {
            Issue.record("not enqueued")
            return
        }
        #expect(first)  // the first message of a batch asks for a wake-up
        #expect(!second)  // the wake for this batch is already pending
        queue.wake()
        #expect(await consumer.value == ["a", "b"])
    }

    @Test func finishDeliversTheRestThenEnds() async {
        let queue = NATSMessageQueue(limit: 10) {}
        _ = queue.enqueue(message("last"))
        queue.finish()
        guard case .terminated = queue.enqueue(message("late")) else {
            Issue.record("enqueue after finish was accepted")
            return
        }
        #expect(await queue.nextBatch().map { Array($0.map(\.payloadString)) } == ["last"])
        #expect(await queue.nextBatch() == nil)
    }

    @Test func cancellingTheConsumerEndsItAndCallsBack() async throws {
        let (cancellations, signal) = AsyncStream.makeStream(of: Void.self)
        let queue = NATSMessageQueue(limit: 10) { signal.yield() }
        let consumer = Task { await queue.nextBatch() }
        try #require(await eventually(poll: .milliseconds(2)) { queue.hasWaiter }, "the consumer never waited")
        consumer.cancel()
        #expect(await consumer.value == nil)
        var iterator = cancellations.makeAsyncIterator()
        #expect(await iterator.next() != nil)
    }

    // MARK: Consumers sharing the queue (nextMessage)

    @Test func sharedConsumersTakeBufferedMessagesOneEachWithoutWaiting() async {
        let queue = NATSMessageQueue(limit: 10) {}
        _ = queue.enqueue(message("a"))
        _ = queue.enqueue(message("b"))
        #expect(await queue.nextMessage()?.payloadString == "a")
        #expect(await queue.nextMessage()?.payloadString == "b")
        #expect(!queue.hasWaiter)
    }

    @Test func waitingConsumersGetOneMessageEachInTheOrderTheyAsked() async throws {
        let queue = NATSMessageQueue(limit: 10, wakeLimit: 2) {}
        let first = Task { await queue.nextMessage()?.payloadString }
        try #require(await eventually(poll: .milliseconds(2)) { queue.messageWaiterCount == 1 })
        let second = Task { await queue.nextMessage()?.payloadString }
        try #require(await eventually(poll: .milliseconds(2)) { queue.messageWaiterCount == 2 })
        guard case .enqueued(let wakeFirst) = queue.enqueue(message("a")),
            case .enqueued(let wakeSecond) = queue.enqueue(message("b")),
            case .enqueued(let wakeThird) = queue.enqueue(message("c"))
        else {
            Issue.record("not enqueued")
            return
        }
        #expect(wakeFirst && !wakeSecond && !wakeThird, "one wake-up per read batch")
        queue.wake()
        #expect(await first.value == "a")
        #expect(await second.value == "b")
        #expect(await queue.nextMessage()?.payloadString == "c", "the rest stays buffered for the next caller")
    }

    /// `count` tasks waiting in `nextMessage()`, in that order, each returning its message's payload.
    private func waitingConsumers(_ count: Int, on queue: NATSMessageQueue) async throws -> [Task<String?, Never>] {
        var tasks: [Task<String?, Never>] = []
        for index in 0..<count {
            tasks.append(Task { await queue.nextMessage()?.payloadString })
            try #require(await eventually(poll: .milliseconds(2)) { queue.messageWaiterCount == index + 1 })
        }
        return tasks
    }

    @Test func aWakeResumesUpToItsLimitAndAsksForOneFollowUpForTheRest() async throws {
        let queue = NATSMessageQueue(limit: 10, wakeLimit: 2, followUpLimit: 2) {}
        let consumers = try await waitingConsumers(5, on: queue)
        for index in 1...5 { _ = queue.enqueue(message("\(index)")) }
        #expect(queue.wake(), "three messages are left while three consumers wait: a follow-up is asked for")
        #expect(await consumers[0].value == "1")
        #expect(await consumers[1].value == "2")
        #expect(queue.messageWaiterCount == 3, "the wake stopped at its limit")
        #expect(!queue.wake(), "a follow-up is already scheduled: not asked for twice")
        #expect(await consumers[2].value == "3")
        #expect(await consumers[3].value == "4")
        #expect(!queue.wake(followUp: true), "nothing is left: no further follow-up")
        #expect(await consumers[4].value == "5")
        #expect(queue.messageWaiterCount == 0)
    }

    @Test func aReadWakesOneConsumerByDefaultAndAFollowUpUpToItsLimit() async throws {
        let queue = NATSMessageQueue(limit: 10, followUpLimit: 3) {}
        let consumers = try await waitingConsumers(5, on: queue)
        for index in 1...5 { _ = queue.enqueue(message("\(index)")) }
        #expect(queue.wake(), "four messages are left while four consumers wait")
        #expect(await consumers[0].value == "1")
        #expect(queue.messageWaiterCount == 4, "a read wakes one consumer")
        #expect(queue.wake(followUp: true), "the follow-up resumed three: one message is left for one consumer")
        #expect(queue.messageWaiterCount == 1)
        #expect(!queue.wake(followUp: true))
        var results: [String?] = []
        for consumer in consumers.dropFirst() { results.append(await consumer.value) }
        #expect(results == ["2", "3", "4", "5"])
        #expect(NATSMessageQueue.defaultWakeLimit == 1)
    }

    @Test func aFollowUpThatLeavesMessagesAsksForTheNext() async throws {
        let queue = NATSMessageQueue(limit: 10, wakeLimit: 1, followUpLimit: 1) {}
        let consumers = try await waitingConsumers(3, on: queue)
        for index in 1...3 { _ = queue.enqueue(message("\(index)")) }
        #expect(queue.wake())
        #expect(queue.wake(followUp: true), "still one message for one waiting consumer")
        #expect(!queue.wake(followUp: true))
        var results: [String?] = []
        for consumer in consumers { results.append(await consumer.value) }
        #expect(results == ["1", "2", "3"])
    }

    @Test func finishServesTheBufferThenEndsEveryWaitingConsumer() async throws {
        let queue = NATSMessageQueue(limit: 10) {}
        let waiting = (0..<3).map { _ in Task { await queue.nextMessage()?.payloadString } }
        try #require(await eventually(poll: .milliseconds(2)) { queue.messageWaiterCount == 3 })
        _ = queue.enqueue(message("last"))
        queue.finish()
        var results: [String?] = []
        for task in waiting { results.append(await task.value) }
        #expect(results.compactMap { $0 } == ["last"], "exactly one consumer gets the buffered message")
        #expect(results.filter { $0 == nil }.count == 2, "the others get the end")
        #expect(await queue.nextMessage() == nil)
    }

    @Test func cancellingASharedConsumerEndsOnlyThatConsumer() async throws {
        let (cancellations, signal) = AsyncStream.makeStream(of: Void.self)
        let queue = NATSMessageQueue(limit: 10) { signal.yield() }
        let cancelled = Task { await queue.nextMessage() }
        let staying = Task { await queue.nextMessage()?.payloadString }
        try #require(await eventually(poll: .milliseconds(2)) { queue.messageWaiterCount == 2 })
        cancelled.cancel()
        #expect(await cancelled.value == nil)
        #expect(queue.messageWaiterCount == 1)
        _ = queue.enqueue(message("kept"))
        queue.wake()
        #expect(await staying.value == "kept", "the subscription went on for the other consumer")
        signal.finish()
        var iterator = cancellations.makeAsyncIterator()
        #expect(await iterator.next() == nil, "a shared consumer's cancellation does not unsubscribe")
    }

    @Test func aConsumerCancelledBeforeItWaitsReturnsAtOnce() async {
        let queue = NATSMessageQueue(limit: 10) {}
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await queue.nextMessage()
        }
        #expect(await task.value == nil)
        #expect(queue.messageWaiterCount == 0)
    }

    @Test func cancellingTheIteratorEndsTheSharedConsumersToo() async throws {
        let queue = NATSMessageQueue(limit: 10) {}
        let shared = Task { await queue.nextMessage() }
        try #require(await eventually(poll: .milliseconds(2)) { queue.messageWaiterCount == 1 })
        let iterator = Task { await queue.nextBatch() }
        try #require(await eventually(poll: .milliseconds(2)) { queue.hasWaiter && queue.messageWaiterCount == 1 })
        iterator.cancel()
        #expect(await iterator.value == nil)
        #expect(await shared.value == nil)
    }
}
