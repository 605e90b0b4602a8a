// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing
import VettIDClient
import VettIDCore

@testable import VettIDViewModels

@Suite("Enrollment state machine")
struct EnrollmentStateMachineTests {
    static let payload = "vettid://enroll?code=k7qm-3xpa&api=https%3A%2F%2Fapi.example.com"
    static let strong = "trombone-quietly-vanilla-37"

    @Test("happy path with attestation: every event yields the next effect")
    func happyPath() throws {
        var machine = EnrollmentStateMachine()
        #expect(machine.state == .initial)
        #expect(machine.beginScanning() == .none)
        #expect(machine.state == .scanningQR(error: nil))
        let link = try EnrollmentInvitationLink(parsing: Self.payload)
        #expect(machine.scanned(Self.payload) == .start(link))
        #expect(machine.state == .attesting(progress: .startingSession))
        #expect(machine.sessionStarted(attestationRequired: true) == .attest)
        #expect(machine.state == .attesting(progress: .attestingDevice))
        #expect(machine.attested() == .none)
        #expect(machine.state == .settingPassword(strength: .empty))
        #expect(machine.passwordChanged("pass") == .none)
        guard case .settingPassword(let weak) = machine.state else { Issue.record("not setting password"); return }
        #expect(!weak.isAcceptable)
        #expect(machine.submitPassword(Self.strong) == .setPassword(Self.strong))
        #expect(machine.state == .finalizing(progress: .sendingPassword))
        #expect(machine.passwordAccepted() == .finalize)
        #expect(machine.state == .finalizing(progress: .sealingCredential))
        #expect(machine.finalized(userGUID: "user-1") == .none)
        #expect(machine.state == .complete(userGUID: "user-1"))
    }

    @Test("without attestation the password comes right after start")
    func withoutAttestation() {
        var machine = EnrollmentStateMachine()
        _ = machine.beginScanning()
        _ = machine.scanned(Self.payload)
        #expect(machine.sessionStarted(attestationRequired: false) == .none)
        #expect(machine.state == .settingPassword(strength: .empty))
    }

    @Test("a bad QR code keeps scanning with an error")
    func badQRCode() {
        var machine = EnrollmentStateMachine()
        _ = machine.beginScanning()
        #expect(machine.scanned("https://example.com") == .none)
        #expect(machine.state == .scanningQR(error: "This is not a VettID invitation code."))
        #expect(machine.scanned("vettid://enroll?code=K7QM-0XPA&api=https%3A%2F%2Fa.example") == .none)
        #expect(machine.state == .scanningQR(error: "The invitation code is not valid."))
    }

    @Test("a used or expired invitation returns to scanning with the reason")
    func invitationErrorsReturnToScanning() {
        for (code, status) in [
            (APIError.Code.invitationUsed, 409), (.invitationExpired, 410), (.invitationNotFound, 404),
        ] {
            var machine = EnrollmentStateMachine()
            _ = machine.beginScanning()
            _ = machine.scanned(Self.payload)
            #expect(machine.failed(APIError(code: code, status: status, description: "x")) == .none)
            guard case .scanningQR(let error?) = machine.state else {
                Issue.record("\(code): \(machine.state)")
                continue
            }
            #expect(error.contains("invitation"))
        }
    }

    @Test("a password the meter refuses is never submitted")
    func weakPasswordNotSubmitted() {
        var machine = Self.atPassword()
        #expect(machine.submitPassword("password123456") == .none)
        guard case .settingPassword(let strength) = machine.state else {
            Issue.record("left the password step"); return
        }
        #expect(!strength.isAcceptable)
        #expect(strength.reasons.map(\.code).contains(.commonPassword))
    }

    @Test("the server's weak_password wins over the meter and shows its reasons")
    func serverWeakPassword() {
        var machine = Self.atPassword()
        _ = machine.submitPassword(Self.strong)
        let error = APIError(
            code: .weakPassword, status: 400, description: "weak", reasons: ["contains a common word or password"],
            score: 2)
        #expect(machine.failed(error) == .none)
        guard case .settingPassword(let strength) = machine.state else {
            Issue.record("not back at the password"); return
        }
        #expect(strength.score == 2)
        #expect(strength.messages == ["contains a common word or password"])
    }

    @Test("retryable failures repeat exactly the failed step; others need a reset")
    func retryAndReset() {
        var machine = Self.atPassword()
        _ = machine.submitPassword(Self.strong)
        _ = machine.passwordAccepted()
        #expect(machine.failed(APIError(code: .networkError, description: "offline")) == .none)
        #expect(machine.state == .error(message: "Cannot reach the server. Check your connection.", retryable: true))
        #expect(machine.retry() == .finalize)
        #expect(machine.state == .finalizing(progress: .sealingCredential))

        #expect(machine.failed(APIError(code: .sessionExpired, status: 410, description: "gone")) == .none)
        guard case .error(_, false) = machine.state else { Issue.record("expected a final error"); return }
        #expect(machine.retry() == .none)
        #expect(machine.reset() == .none)
        #expect(machine.state == .initial)
    }

    @Test("a 5xx is retryable, a device that cannot attest is not")
    func retryability() {
        #expect(EnrollmentStateMachine.isRetryable(APIError(code: .internalError, status: 500, description: "x")))
        #expect(EnrollmentStateMachine.isRetryable(APIError(code: .rateLimited, status: 429, description: "x")))
        #expect(!EnrollmentStateMachine.isRetryable(APIError(code: .attestationFailed, description: "x")))
        #expect(!EnrollmentStateMachine.isRetryable(APIError(code: .invitationUsed, status: 409, description: "x")))
    }

    @Test("events in the wrong state change nothing")
    func ignoresStrayEvents() {
        var machine = EnrollmentStateMachine()
        #expect(machine.scanned(Self.payload) == .none)
        #expect(machine.attested() == .none)
        #expect(machine.passwordAccepted() == .none)
        #expect(machine.finalized(userGUID: "u") == .none)
        #expect(machine.submitPassword(Self.strong) == .none)
        #expect(machine.failed(APIError(code: .networkError, description: "x")) == .none)
        #expect(machine.state == .initial)
    }

    static func atPassword() -> EnrollmentStateMachine {
        var machine = EnrollmentStateMachine()
        _ = machine.beginScanning()
        _ = machine.scanned(payload)
        _ = machine.sessionStarted(attestationRequired: false)
        return machine
    }
}
