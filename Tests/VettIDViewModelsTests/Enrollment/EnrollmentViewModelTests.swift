// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing
import VettIDClient
import VettIDCore

@testable import VettIDViewModels

/// Failures the test actions throw, changeable between calls.
@MainActor
final class ScriptedFailures {
    var errors: [String: APIError]

    init(_ errors: [String: APIError] = [:]) {
        self.errors = errors
    }
}

@MainActor
@Suite("Enrollment view model")
struct EnrollmentViewModelTests {
    static let payload = "vettid://enroll?code=K7QM-3XPA&api=https%3A%2F%2Fapi.example.com"
    static let strong = "trombone-quietly-vanilla-37"

    func actions(_ log: CallLog, attestationRequired: Bool = true, failing: ScriptedFailures = ScriptedFailures())
        -> EnrollmentViewModel.Actions
    {
        EnrollmentViewModel.Actions(
            start: { link in
                log.calls.append("start \(link.code)")
                if let error = failing.errors["start"] { throw error }
                return attestationRequired
            },
            attest: {
                log.calls.append("attest")
                if let error = failing.errors["attest"] { throw error }
            },
            setPassword: { password in
                log.calls.append("password \(password)")
                if let error = failing.errors["password"] { throw error }
            },
            finalize: {
                log.calls.append("finalize")
                if let error = failing.errors["finalize"] { throw error }
                return "user-1"
            }
        )
    }

    @Test("scanning runs start and attestation, the password runs password and finalize")
    func fullFlow() async {
        let log = CallLog()
        let model = EnrollmentViewModel(actions: actions(log))
        model.beginScanning()
        await model.scanned(Self.payload)
        #expect(log.calls == ["start K7QM-3XPA", "attest"])
        #expect(model.state == .settingPassword(strength: .empty))
        model.password = "short"
        guard case .settingPassword(let strength) = model.state else { Issue.record("left the password step"); return }
        #expect(strength.reasons.first?.code == .tooShort)
        model.password = Self.strong
        model.confirmation = model.password
        await model.submitPassword()
        #expect(log.calls == ["start K7QM-3XPA", "attest", "password \(Self.strong)", "finalize"])
        #expect(model.state == .complete(userGUID: "user-1"))
        #expect(model.password.isEmpty)
        #expect(!model.isBusy)
    }

    @Test("a weak password is never sent")
    func weakPasswordNotSent() async {
        let log = CallLog()
        let model = EnrollmentViewModel(actions: actions(log, attestationRequired: false))
        model.beginScanning()
        await model.scanned(Self.payload)
        model.password = "qwertyuiopas"
        model.confirmation = model.password
        await model.submitPassword()
        #expect(log.calls == ["start K7QM-3XPA"])
        guard case .settingPassword(let strength) = model.state else { Issue.record("left the password step"); return }
        #expect(!strength.isAcceptable)
    }

    @Test("a network failure at finalize can be retried; it repeats only finalize")
    func retryFinalize() async {
        let log = CallLog()
        let failing = ScriptedFailures(["finalize": APIError(code: .networkError, description: "offline")])
        let model = EnrollmentViewModel(actions: actions(log, failing: failing))
        model.beginScanning()
        await model.scanned(Self.payload)
        model.password = Self.strong
        model.confirmation = model.password
        await model.submitPassword()
        #expect(model.state == .error(message: "Cannot reach the server. Check your connection.", retryable: true))
        failing.errors = [:]
        await model.retry()
        #expect(model.state == .complete(userGUID: "user-1"))
        #expect(log.calls.suffix(2) == ["finalize", "finalize"])
    }

    @Test("an invitation already used sends the screen back to scanning")
    func usedInvitation() async {
        let log = CallLog()
        let model = EnrollmentViewModel(
            actions: actions(
                log,
                failing: ScriptedFailures(["start": APIError(code: .invitationUsed, status: 409, description: "used")]))
        )
        model.beginScanning()
        await model.scanned(Self.payload)
        #expect(model.state == .scanningQR(error: "This invitation has already been used. Ask for a new one."))
        #expect(log.calls == ["start K7QM-3XPA"])
    }

    @Test("a typed code is formatted as typed and redeemed at the configured origin")
    func manualCodeEntry() async throws {
        let log = CallLog()
        let origin = try #require(URL(string: "https://api.example.com"))
        let model = EnrollmentViewModel(actions: actions(log), manualEntryOrigin: origin)
        #expect(model.allowsManualEntry)
        model.beginScanning()
        model.manualCode = "k7qm3xpa"
        #expect(model.manualCode == "K7QM-3XPA")
        guard case .scanner(let scanner) = model.screen(camera: .denied, format: usUTC).step else {
            Issue.record("expected the scanner")
            return
        }
        #expect(scanner.manualEntry?.submit.isEnabled == true)
        await model.submitCode()
        #expect(log.calls == ["start K7QM-3XPA", "attest"])
        #expect(model.state == .settingPassword(strength: .empty))
    }

    @Test("a typed code is refused without a configured origin, and an invalid one is explained")
    func manualCodeRefused() async throws {
        let log = CallLog()
        let without = EnrollmentViewModel(actions: actions(log))
        without.beginScanning()
        without.manualCode = "K7QM-3XPA"
        await without.submitCode()
        #expect(log.calls.isEmpty)
        #expect(without.state == .scanningQR(error: nil))

        let origin = try #require(URL(string: "https://api.example.com"))
        let model = EnrollmentViewModel(actions: actions(log), manualEntryOrigin: origin)
        model.beginScanning()
        model.manualCode = "K7QM"
        await model.submitCode()
        #expect(log.calls.isEmpty)
        #expect(model.state == .scanningQR(error: "The invitation code is not valid."))
    }

    @Test("a camera that failed to start is shown until Try Again or the next scan; a late report is ignored")
    func cameraFailure() async {
        let log = CallLog()
        let model = EnrollmentViewModel(actions: actions(log))
        model.cameraFailed(.sessionRefused)
        #expect(model.cameraFailure == nil, "not scanning: nothing to report on")

        model.beginScanning()
        model.cameraFailed(.sessionRefused)
        #expect(model.cameraFailure == .sessionRefused)
        guard case .scanner(let failed) = model.screen(camera: .authorized, format: usUTC).step else {
            Issue.record("expected the scanner")
            return
        }
        #expect(!failed.showsCamera)
        #expect(failed.cameraBanner?.action?.kind == .retryCamera)

        model.retryCamera()
        #expect(model.cameraFailure == nil)
        guard case .scanner(let retried) = model.screen(camera: .authorized, format: usUTC).step else {
            Issue.record("expected the scanner")
            return
        }
        #expect(retried.showsCamera, "Try Again shows a new preview, which sets up a new session")

        model.cameraFailed(.cameraUnavailable)
        model.beginScanning()
        #expect(model.cameraFailure == nil, "opening the scanner again sets the camera up afresh")

        model.cameraFailed(.qrUnsupported)
        await model.scanned(Self.payload)
        #expect(model.state == .settingPassword(strength: .empty))
        model.cameraFailed(.sessionRefused)
        #expect(model.cameraFailure == .qrUnsupported, "a preview reporting after the flow moved on changes nothing")
        model.reset()
        #expect(model.cameraFailure == nil)
    }

    @Test("a password is not sent until the confirmation matches; reset clears every field")
    func confirmationRequired() async {
        let log = CallLog()
        let model = EnrollmentViewModel(actions: actions(log, attestationRequired: false))
        model.beginScanning()
        await model.scanned(Self.payload)
        model.password = Self.strong
        model.confirmation = "something else"
        await model.submitPassword()
        #expect(log.calls == ["start K7QM-3XPA"])
        guard case .password(let content) = model.screen(camera: .authorized, format: usUTC).step else {
            Issue.record("expected the password step")
            return
        }
        #expect(content.confirmationError == "The passwords do not match.")
        #expect(!content.submit.isEnabled)
        model.manualCode = "K7QM"
        model.reset()
        #expect(model.password.isEmpty && model.confirmation.isEmpty && model.manualCode.isEmpty)
        #expect(model.state == .initial)
    }
}
