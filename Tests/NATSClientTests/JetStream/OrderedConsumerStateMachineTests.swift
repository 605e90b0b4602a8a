// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Testing

@testable import NATSClient

/// The ordered consumer's decisions, event by event, without a server or a clock.
@Suite struct OrderedConsumerStateMachineTests {
    private func machine(
        _ policy: ConsumerConfiguration.DeliverPolicy = .all,
        batch: Int = 10,
        endWhenCaughtUp: Bool = false,
        maxConsecutiveFailures: Int? = 10
    ) -> OrderedConsumerStateMachine {
        OrderedConsumerStateMachine(
            deliverPolicy: policy, batch: batch, endWhenCaughtUp: endWhenCaughtUp,
            maxConsecutiveFailures: maxConsecutiveFailures)
    }

    private func delivery(
        _ consumer: String,
        stream streamSequence: UInt64,
        consumer consumerSequence: UInt64,
        pending: UInt64 = 5
    ) -> JetStreamMessageMetadata {
        JetStreamMessageMetadata(
            stream: "EVENTS", consumer: consumer, delivered: 1, streamSequence: streamSequence,
            consumerSequence: consumerSequence, timestamp: 0, pending: pending)
    }

    private let failed = JetStreamError(.missedHeartbeat, "two heartbeats missed")

    @Test func theFirstConsumerStartsByThePolicyAndDeliversInOrder() {
        var machine = machine(.startSequence(40), batch: 10)
        #expect(machine.nextStep() == .create(.policy(.startSequence(40)), replacing: nil, after: .zero))
        machine.created("c1", pending: 25)
        // What is pending, up to the batch.
        #expect(machine.nextStep() == .fetch(consumer: "c1", batch: 10))
        #expect(machine.received(delivery("c1", stream: 40, consumer: 1, pending: 24)) == .deliver)
        // A deleted message leaves a hole in the stream sequence, not in the consumer's: still in order.
        #expect(machine.received(delivery("c1", stream: 42, consumer: 2, pending: 3)) == .deliver)
        #expect(machine.lastStreamSequence == 42)
        #expect(machine.nextStep() == .fetch(consumer: "c1", batch: 3))
        #expect(machine.received(delivery("c1", stream: 43, consumer: 3, pending: 0)) == .deliver)
        // Nothing pending: one message at a time, so a pull never waits for a batch that is not there.
        #expect(machine.nextStep() == .fetch(consumer: "c1", batch: 1))
        #expect(machine.resets == 0)
    }

    @Test func aGapInTheConsumerSequenceReplacesTheConsumerAfterTheLastDelivered() {
        var machine = machine()
        _ = machine.nextStep()
        machine.created("c1", pending: 10)
        #expect(machine.received(delivery("c1", stream: 1, consumer: 1)) == .deliver)
        #expect(machine.received(delivery("c1", stream: 2, consumer: 2)) == .deliver)
        // Consumer sequence 3 never came.
        #expect(machine.received(delivery("c1", stream: 4, consumer: 4)) == .reset)
        #expect(machine.consumer == nil)
        #expect(machine.resets == 1)
        #expect(machine.nextStep() == .create(.sequence(3), replacing: "c1", after: .zero))
        // Late deliveries of the old consumer are dropped.
        #expect(machine.received(delivery("c1", stream: 5, consumer: 5)) == .skip)
        machine.created("c2", pending: 8)
        #expect(machine.received(delivery("c1", stream: 3, consumer: 3)) == .skip)
        #expect(machine.received(delivery("c2", stream: 3, consumer: 1)) == .deliver)
        #expect(machine.received(delivery("c2", stream: 4, consumer: 2)) == .deliver)
        #expect(machine.lastStreamSequence == 4)
    }

    @Test func aRepeatedDeliveryIsDroppedAndAStreamSequenceGoingBackIsAGap() {
        var machine = machine()
        _ = machine.nextStep()
        machine.created("c1", pending: 10)
        #expect(machine.received(delivery("c1", stream: 7, consumer: 1)) == .deliver)
        #expect(machine.received(delivery("c1", stream: 7, consumer: 1)) == .skip)
        #expect(machine.received(delivery("c1", stream: 6, consumer: 2)) == .reset)
        #expect(machine.nextStep() == .create(.sequence(8), replacing: "c1", after: .zero))
    }

    @Test func aGapBeforeAnyDeliveryStartsAgainByThePolicy() {
        var machine = machine(.new)
        _ = machine.nextStep()
        machine.created("c1", pending: 0)
        #expect(machine.received(delivery("c1", stream: 9, consumer: 2)) == .reset)
        #expect(machine.nextStep() == .create(.policy(.new), replacing: "c1", after: .zero))
    }

    @Test(arguments: [
        JetStreamError.Code.missedHeartbeat, .consumerDeleted, .consumerNotFound, .timeout, .pullRefused, .notEnabled,
    ])
    func aTransientFetchFailureReplacesTheConsumer(code: JetStreamError.Code) {
        var machine = machine()
        _ = machine.nextStep()
        machine.created("c1", pending: 10)
        #expect(machine.received(delivery("c1", stream: 1, consumer: 1)) == .deliver)
        machine.fetchFailed(JetStreamError(code, "failed"))
        #expect(machine.nextStep() == .create(.sequence(2), replacing: "c1", after: .zero))
        #expect(machine.resets == 1)
    }

    @Test(arguments: [JetStreamError.Code.cancelled, .requestFailed, .streamNotFound, .invalidName])
    func aLastingFetchFailureEndsTheReplay(code: JetStreamError.Code) {
        var machine = machine()
        _ = machine.nextStep()
        machine.created("c1", pending: 10)
        machine.fetchFailed(JetStreamError(code, "failed"))
        #expect(machine.nextStep() == .fail(JetStreamError(code, "failed")))
        // And stays failed.
        #expect(machine.nextStep() == .fail(JetStreamError(code, "failed")))
    }

    @Test func aReconnectReplacesTheConsumerAfterWhatWasAlreadyFetched() {
        var machine = machine()
        _ = machine.nextStep()
        machine.created("c1", pending: 10)
        #expect(machine.nextStep() == .fetch(consumer: "c1", batch: 10))
        machine.fetched()
        machine.reconnected()
        // The pull's messages are still taken in order.
        #expect(machine.received(delivery("c1", stream: 1, consumer: 1)) == .deliver)
        #expect(machine.received(delivery("c1", stream: 2, consumer: 2)) == .deliver)
        #expect(machine.nextStep() == .create(.sequence(3), replacing: "c1", after: .zero))
        #expect(machine.resets == 1)
        // A reconnect without a consumer changes nothing.
        machine.reconnected()
        machine.created("c2", pending: 8)
        #expect(machine.nextStep() == .fetch(consumer: "c2", batch: 8))
    }

    @Test func failuresInARowWaitLongerAndEndTheReplayAtTheLimit() {
        var machine = machine(maxConsecutiveFailures: 5)
        _ = machine.nextStep()
        machine.created("c1", pending: 10)
        machine.fetchFailed(failed)
        #expect(machine.nextStep() == .create(.policy(.all), replacing: "c1", after: .zero))
        let unavailable = JetStreamError(.notEnabled, "no JetStream (503)")
        machine.createFailed(unavailable)
        #expect(machine.nextStep() == .create(.policy(.all), replacing: "c1", after: .milliseconds(250)))
        machine.createFailed(unavailable)
        #expect(machine.nextStep() == .create(.policy(.all), replacing: "c1", after: .milliseconds(500)))
        machine.createFailed(unavailable)
        #expect(machine.nextStep() == .create(.policy(.all), replacing: "c1", after: .seconds(1)))
        machine.createFailed(unavailable)
        #expect(machine.nextStep() == .fail(unavailable))
    }

    @Test func aSuccessfulFetchOrDeliveryClearsTheFailures() {
        var machine = machine(maxConsecutiveFailures: 2)
        _ = machine.nextStep()
        machine.created("c1", pending: 10)
        machine.fetchFailed(failed)
        _ = machine.nextStep()
        machine.created("c2", pending: 10)
        machine.fetched()
        #expect(machine.consecutiveFailures == 0)
        machine.fetchFailed(failed)
        _ = machine.nextStep()
        machine.created("c3", pending: 10)
        #expect(machine.received(delivery("c3", stream: 1, consumer: 1)) == .deliver)
        #expect(machine.consecutiveFailures == 0)
        machine.fetchFailed(failed)
        #expect(machine.nextStep() == .create(.sequence(2), replacing: "c3", after: .zero))
    }

    @Test func theRetryDelayDoublesUpToFiveSeconds() {
        let delays = (0...9).map(OrderedConsumerStateMachine.retryDelay(afterFailures:))
        #expect(
            delays == [
                .zero, .zero, .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2), .seconds(4),
                .seconds(5),
                .seconds(5), .seconds(5),
            ])
    }

    @Test func aCreateRefusedForGoodEndsTheReplay() {
        var machine = machine()
        _ = machine.nextStep()
        let missing = JetStreamError(.streamNotFound, "stream not found")
        machine.createFailed(missing)
        #expect(machine.nextStep() == .fail(missing))
    }

    @Test func endingWhenCaughtUpDeletesTheConsumer() {
        var machine = machine(endWhenCaughtUp: true)
        _ = machine.nextStep()
        machine.created("c1", pending: 2)
        #expect(machine.nextStep() == .fetch(consumer: "c1", batch: 2))
        #expect(machine.received(delivery("c1", stream: 1, consumer: 1, pending: 1)) == .deliver)
        #expect(machine.received(delivery("c1", stream: 2, consumer: 2, pending: 0)) == .deliver)
        #expect(machine.nextStep() == .end(consumer: "c1"))
        #expect(machine.nextStep() == .end(consumer: nil))

        // An empty stream (or filter) ends at once.
        var empty = self.machine(endWhenCaughtUp: true)
        _ = empty.nextStep()
        empty.created("c1", pending: 0)
        #expect(empty.nextStep() == .end(consumer: "c1"))
    }

    @Test func aReleasedConsumerIsReplacedWithoutDeletingItAgain() {
        var machine = machine()
        _ = machine.nextStep()
        machine.created("c1", pending: 10)
        #expect(machine.received(delivery("c1", stream: 5, consumer: 1)) == .deliver)
        machine.released()
        #expect(machine.nextStep() == .create(.sequence(6), replacing: nil, after: .zero))
        #expect(machine.resets == 0)
    }
}
