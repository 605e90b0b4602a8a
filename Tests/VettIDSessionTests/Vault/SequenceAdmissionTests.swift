// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Testing
import VettIDSession

/// The admission's decisions with time as input: no call sleeps.
@Suite struct SequenceAdmissionTests {
    let t0 = ContinuousClock.now

    func at(_ milliseconds: Int) -> ContinuousClock.Instant { t0.advanced(by: .milliseconds(milliseconds)) }

    @Test func inOrderNumbersAreAdmitted() {
        var admission = SequenceAdmission(maxMessages: 1000)
        for sequence in UInt64(1)...5 {
            #expect(admission.receive(sequence, now: t0) == .admit)
        }
        #expect(admission.highest == 5)
    }

    @Test func aRepeatedNumberIsReplayed() {
        var admission = SequenceAdmission(maxMessages: 1000)
        #expect(admission.receive(1, now: t0) == .admit)
        #expect(admission.receive(1, now: t0) == .refuse(.replayed))
        #expect(admission.receive(2, now: t0) == .admit)
        #expect(admission.receive(1, now: at(10_000)) == .refuse(.replayed))
    }

    @Test func aNumberAboveAGapWaitsThenTheGapClosesIt() {
        var admission = SequenceAdmission(maxMessages: 1000)
        #expect(admission.receive(1, now: t0) == .admit)
        #expect(admission.receive(3, now: t0) == .wait(until: at(50)))
        // A duplicate of the waiting number is a replay, not a second waiter.
        #expect(admission.receive(3, now: at(1)) == .refuse(.replayed))
        #expect(admission.resume(3, now: at(10)) == .wait(until: at(50)))
        #expect(admission.receive(2, now: at(20)) == .admit)
        #expect(admission.resume(3, now: at(20)) == .admit)
        #expect(admission.highest == 3)
        #expect(admission.waitingCount == 0)
    }

    @Test func aNumberAboveAGapIsAdmittedAtItsDeadlineAndTheLateGapIsOutOfOrder() {
        var admission = SequenceAdmission(maxMessages: 1000)
        #expect(admission.receive(1, now: t0) == .admit)
        #expect(admission.receive(3, now: t0) == .wait(until: at(50)))
        #expect(admission.resume(3, now: at(49)) == .wait(until: at(50)))
        #expect(admission.resume(3, now: at(50)) == .admit)
        #expect(admission.highest == 3)
        // The late gap number is refused out of order once, and as a replay after that.
        #expect(admission.receive(2, now: at(60)) == .refuse(.outOfOrder))
        #expect(admission.receive(2, now: at(61)) == .refuse(.replayed))
        #expect(admission.receive(4, now: at(62)) == .admit)
    }

    @Test func aWaiterOvertakenByAHigherAdmissionIsOutOfOrder() {
        var admission = SequenceAdmission(maxMessages: 1000)
        #expect(admission.receive(5, now: t0) == .wait(until: at(50)))
        #expect(admission.receive(3, now: at(30)) == .wait(until: at(80)))
        #expect(admission.resume(5, now: at(50)) == .admit)
        #expect(admission.resume(3, now: at(50)) == .refuse(.outOfOrder))
        #expect(admission.receive(1, now: at(51)) == .refuse(.outOfOrder))
        #expect(admission.receive(6, now: at(52)) == .admit)
    }

    @Test func withoutAReorderWaitAGapIsAdmittedAtOnce() {
        var admission = SequenceAdmission(maxMessages: 1000, reorderWait: .zero)
        #expect(admission.receive(2, now: t0) == .admit)
        #expect(admission.receive(1, now: t0) == .refuse(.outOfOrder))
    }

    @Test func limitsAndZero() {
        var admission = SequenceAdmission(maxMessages: 3)
        #expect(admission.receive(0, now: t0) == .refuse(.malformedEnvelope))
        #expect(admission.receive(4, now: t0) == .refuse(.sessionExpired))
        #expect(admission.receive(UInt64.max, now: t0) == .refuse(.sessionExpired))
        for sequence in UInt64(1)...3 { #expect(admission.receive(sequence, now: t0) == .admit) }
        #expect(admission.isReceived(3))
        #expect(!admission.isReceived(4))
        #expect(admission.resume(2, now: t0) == .refuse(.replayed))
    }

    @Test func theBitsetCoversEveryNumberUpToTheLimit() {
        var admission = SequenceAdmission(maxMessages: 1000, reorderWait: .zero)
        for sequence in stride(from: UInt64(1000), through: 1, by: -1) {
            let expected: SequenceAdmission.Decision = sequence == 1000 ? .admit : .refuse(.outOfOrder)
            #expect(admission.receive(sequence, now: t0) == expected)
        }
        for sequence in UInt64(1)...1000 {
            #expect(admission.receive(sequence, now: t0) == .refuse(.replayed))
        }
    }
}
