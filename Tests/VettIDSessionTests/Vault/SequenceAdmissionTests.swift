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

    @Test func aNumberAboveAGapIsAdmittedAtOnceAndTheGapWhileItIsOpen() {
        var admission = SequenceAdmission(maxMessages: 1000)
        #expect(admission.receive(1, now: t0) == .admit)
        #expect(admission.receive(4, now: t0) == .admit)
        #expect(admission.highest == 4)
        #expect(admission.openGapCount == 1)
        // A duplicate of the admitted number is a replay.
        #expect(admission.receive(4, now: at(1)) == .refuse(.replayed))
        #expect(admission.receive(3, now: at(10)) == .admit)
        #expect(admission.receive(2, now: at(49)) == .admit)
        #expect(admission.receive(2, now: at(49)) == .refuse(.replayed))
        #expect(admission.highest == 4)
    }

    @Test func aGapNumberAfterTheWaitIsOutOfOrderOnceThenAReplay() {
        var admission = SequenceAdmission(maxMessages: 1000)
        #expect(admission.receive(1, now: t0) == .admit)
        #expect(admission.receive(3, now: t0) == .admit)
        #expect(admission.receive(2, now: at(50)) == .refuse(.outOfOrder))
        #expect(admission.openGapCount == 0)
        #expect(admission.receive(2, now: at(51)) == .refuse(.replayed))
        #expect(admission.receive(4, now: at(52)) == .admit)
    }

    @Test func eachGapHasItsOwnDeadline() {
        var admission = SequenceAdmission(maxMessages: 1000)
        #expect(admission.receive(3, now: t0) == .admit)  // gap 1...2 until 50
        #expect(admission.receive(6, now: at(30)) == .admit)  // gap 4...5 until 80
        #expect(admission.openGapCount == 2)
        #expect(admission.receive(1, now: at(60)) == .refuse(.outOfOrder))
        #expect(admission.receive(4, now: at(60)) == .admit)
        #expect(admission.receive(5, now: at(80)) == .refuse(.outOfOrder))
        #expect(admission.receive(2, now: at(80)) == .refuse(.outOfOrder))
        #expect(admission.openGapCount == 0)
    }

    @Test func aNumberBelowTheHighestThatWasNeverAGapIsOutOfOrder() {
        var admission = SequenceAdmission(maxMessages: 1000)
        for sequence in UInt64(1)...3 { #expect(admission.receive(sequence, now: t0) == .admit) }
        #expect(admission.receive(5, now: t0) == .admit)
        // 4 is in the open gap; nothing below 4 was ever skipped.
        #expect(admission.receive(4, now: t0) == .admit)
        #expect(admission.receive(2, now: t0) == .refuse(.replayed))
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
