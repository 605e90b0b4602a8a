// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Testing

@testable import VettIDServer

/// The pure enrollment state machine: every (step, state) pair, with and without a required attestation.
@Suite struct EnrollmentStateMachineTests {
    typealias Machine = EnrollmentStateMachine

    @Test func theHappyPathAdvancesInOrder() {
        #expect(Machine.decide(.attestation, in: .started, attestationRequired: true) == .advance(to: .attested))
        #expect(Machine.decide(.password, in: .attested, attestationRequired: true) == .advance(to: .passwordSet))
        #expect(Machine.decide(.finalize, in: .passwordSet, attestationRequired: true) == .advance(to: .completed))
    }

    @Test func withoutARequiredAttestationThePasswordMayComeFirst() {
        #expect(Machine.decide(.password, in: .started, attestationRequired: false) == .advance(to: .passwordSet))
        #expect(Machine.decide(.password, in: .started, attestationRequired: true) == .outOfOrder)
        #expect(Machine.nextStep(after: .started, attestationRequired: false) == .password)
        #expect(Machine.nextStep(after: .started, attestationRequired: true) == .attestation)
    }

    @Test func aStepThatAlreadyHappenedIsARepeat() {
        #expect(Machine.decide(.attestation, in: .attested, attestationRequired: true) == .repeatStep)
        #expect(Machine.decide(.password, in: .passwordSet, attestationRequired: true) == .repeatStep)
        #expect(Machine.decide(.finalize, in: .completed, attestationRequired: true) == .repeatStep)
    }

    @Test(arguments: [true, false])
    func everythingElseIsOutOfOrder(required: Bool) {
        let base: Set<String> = [
            "attestation/started", "attestation/attested", "password/attested", "password/passwordSet",
            "finalize/passwordSet", "finalize/completed",
        ]
        let allowed = base.union(required ? [] : ["password/started"])
        for step in EnrollmentStep.allCases {
            for state in EnrollmentSessionState.allCases {
                let key = "\(step)/\(state)"
                let decision = Machine.decide(step, in: state, attestationRequired: required)
                #expect((decision != .outOfOrder) == allowed.contains(key), "\(key) → \(decision)")
            }
        }
        #expect(Machine.decide(.finalize, in: .started, attestationRequired: required) == .outOfOrder)
        #expect(Machine.decide(.attestation, in: .completed, attestationRequired: required) == .outOfOrder)
        #expect(Machine.nextStep(after: .completed, attestationRequired: required) == nil)
    }
}
