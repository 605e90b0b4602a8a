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
}
