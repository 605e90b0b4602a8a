// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Testing
import VettIDClient

@testable import VettIDViewModels

@Suite("Enrollment screen presentation")
struct EnrollmentScreenTests {
    static let strong = "trombone-quietly-vanilla-37"
    static let meter = PasswordStrengthMeter()

    @Test("initial: a welcome with Scan Invitation")
    func welcome() {
        let screen = EnrollmentScreen(state: .initial, format: usUTC)
        #expect(screen.title == "Set Up Your Vault")
        guard case .welcome(let message, let start) = screen.step else {
            Issue.record("expected the welcome step, got \(screen.step)")
            return
        }
        #expect(message.contains("QR code"))
        #expect(start == ScreenAction(.startScanning, title: "Scan Invitation"))
        #expect(screen.allowsCancel)
    }

    @Test("scanner: the camera runs only when authorized; each other authorization says why and what helps")
    func cameraStates() {
        let authorized = QRScannerContent(camera: .authorized, error: nil, manualCode: "", allowsManualEntry: true)
        #expect(authorized.showsCamera)
        #expect(authorized.cameraBanner == nil)
        #expect(authorized.instructions == "Point the camera at the QR code of your VettID invitation.")

        let undetermined = QRScannerContent(camera: .notDetermined, error: nil, manualCode: "", allowsManualEntry: true)
        #expect(!undetermined.showsCamera)
        #expect(undetermined.cameraBanner?.action?.kind == .requestCameraAccess)

        let denied = QRScannerContent(camera: .denied, error: nil, manualCode: "", allowsManualEntry: true)
        #expect(!denied.showsCamera)
        #expect(denied.cameraBanner?.action?.kind == .openSettings)
        #expect(denied.cameraBanner?.action?.title == "Open Settings")
        #expect(denied.cameraBanner?.message.contains("Type the code") == true)

        let restricted = QRScannerContent(camera: .restricted, error: nil, manualCode: "", allowsManualEntry: true)
        #expect(!restricted.showsCamera)
        #expect(restricted.cameraBanner?.action == nil, "the member cannot lift a restriction in Settings")
        #expect(restricted.cameraBanner?.tone == .caution)

        let none = QRScannerContent(camera: .unavailable, error: nil, manualCode: "", allowsManualEntry: false)
        #expect(!none.showsCamera)
        #expect(none.cameraBanner?.message == "This device has no camera.")
        #expect(none.manualEntry == nil)
    }

    @Test("scanner: an authorized camera that failed to start shows why instead of a black viewfinder")
    func cameraFailures() {
        for failure in CameraCaptureFailure.allCases {
            let content = QRScannerContent(
                camera: .authorized, cameraFailure: failure, error: nil, manualCode: "", allowsManualEntry: true)
            #expect(!content.showsCamera, "\(failure): no preview")
            #expect(content.cameraBanner?.tone == .caution)
            #expect(content.cameraBanner?.message.hasSuffix(" Type the code from your invitation instead.") == true)
            #expect(content.instructions == "Scan the QR code of your VettID invitation.")
            #expect(content.manualEntry?.submit.role == .primary, "manual entry is the way in while the camera fails")
            if failure.isRetryable {
                #expect(
                    content.cameraBanner?.action == ScreenAction(.retryCamera, title: "Try Again", role: .secondary))
            } else {
                #expect(content.cameraBanner?.action == nil, "\(failure): trying again cannot help")
            }
        }
        let busy = QRScannerContent(
            camera: .authorized, cameraFailure: .cameraUnavailable, error: nil, manualCode: "",
            allowsManualEntry: false)
        #expect(busy.cameraBanner?.message == "The camera could not be opened. Another app may be using it.")
        #expect(CameraCaptureFailure.allCases.filter(\.isRetryable) == [.cameraUnavailable, .sessionRefused])

        // Authorization comes first: a stale failure does not hide why the camera may not be used.
        let denied = QRScannerContent(
            camera: .denied, cameraFailure: .sessionRefused, error: nil, manualCode: "", allowsManualEntry: true)
        #expect(denied.cameraBanner?.action?.kind == .openSettings)
    }

    @Test("scanner: manual entry formats the code and enables Continue once complete")
    func manualEntry() throws {
        let partial = try #require(
            QRScannerContent(camera: .denied, error: nil, manualCode: "k7qm3x", allowsManualEntry: true).manualEntry)
        #expect(partial.text == "K7QM-3X")
        #expect(partial.placeholder == "XXXX-XXXX")
        #expect(!partial.submit.isEnabled)
        #expect(partial.submit.role == .primary)
        let complete = try #require(
            QRScannerContent(camera: .authorized, error: nil, manualCode: "K7QM-3XPA", allowsManualEntry: true)
                .manualEntry)
        #expect(complete.submit.isEnabled)
        #expect(complete.submit.role == .secondary, "the camera is the main way while it runs")
        let busy = try #require(
            QRScannerContent(
                camera: .authorized, error: nil, manualCode: "K7QM-3XPA", allowsManualEntry: true, isBusy: true
            ).manualEntry)
        #expect(!busy.submit.isEnabled)
    }

    @Test("scanner: a refused code shows as a critical banner")
    func scanError() {
        let screen = EnrollmentScreen(
            state: .scanningQR(error: "This is not a VettID invitation code."), camera: .authorized, format: usUTC)
        guard case .scanner(let content) = screen.step else {
            Issue.record("expected the scanner, got \(screen.step)")
            return
        }
        #expect(content.error == BannerContent(tone: .critical, message: "This is not a VettID invitation code."))
        #expect(content.manualEntry == nil, "no origin for typed codes")
    }

    @Test("the code formatter keeps a prefix of XXXX-XXXX over the invitation alphabet")
    func codeFormatter() {
        #expect(InvitationCodeInput.format("") == "")
        #expect(InvitationCodeInput.format("k7q") == "K7Q")
        #expect(InvitationCodeInput.format("k7qm") == "K7QM")
        #expect(InvitationCodeInput.format("k7qm3") == "K7QM-3")
        #expect(InvitationCodeInput.format("K7QM-3XPA") == "K7QM-3XPA")
        #expect(InvitationCodeInput.format(" k7 qm-3x pa ") == "K7QM-3XPA")
        #expect(InvitationCodeInput.format("K7QM3XPAZZZZ") == "K7QM-3XPA", "stops at eight characters")
        #expect(InvitationCodeInput.format("O0I1L!") == "", "characters outside the alphabet are dropped")
        #expect(InvitationCodeInput.isComplete("K7QM-3XPA"))
        #expect(!InvitationCodeInput.isComplete("K7QM-3XP"))
        #expect(!InvitationCodeInput.isComplete("K7QM3XPA"), "not formatted")
        // Every complete formatted code is one EnrollmentInvitationLink accepts.
        #expect(
            (try? EnrollmentInvitationLink(
                code: InvitationCodeInput.format("abcd2345"), apiOrigin: URL(string: "https://a.example")!))
                != nil)
    }

    @Test("the scan filter reports a payload once, again after the interval, and a new one at once")
    func scanFilter() {
        var filter = QRScanFilter(repeatInterval: .seconds(2))
        let start = novemberAfternoon
        let accepted1 = filter.accept("vettid://enroll?code=A", at: start)
        #expect(accepted1)
        let accepted2 = filter.accept("vettid://enroll?code=A", at: start.addingTimeInterval(0.1))
        #expect(!accepted2)
        let accepted3 = filter.accept(" vettid://enroll?code=A\n", at: start.addingTimeInterval(1.9))
        #expect(!accepted3)
        let accepted4 = filter.accept("vettid://enroll?code=B", at: start.addingTimeInterval(2.0))
        #expect(accepted4)
        let accepted5 = filter.accept("vettid://enroll?code=A", at: start.addingTimeInterval(2.1))
        #expect(accepted5)
        let accepted6 = filter.accept("   ", at: start.addingTimeInterval(10))
        #expect(!accepted6)
        filter.reset()
        let accepted7 = filter.accept("vettid://enroll?code=A", at: start.addingTimeInterval(2.2))
        #expect(accepted7)
    }

    @Test("progress: the four steps with done, running and pending, and the percentage")
    func progress() {
        let attesting = EnrollmentProgressContent(progress: .attestingDevice, format: usUTC)
        #expect(attesting.title == "Verifying Your Device")
        #expect(attesting.message == "Verifying this device…")
        #expect(attesting.fraction == 0.3)
        #expect(attesting.accessibilityValue == "30%")
        #expect(attesting.steps.map(\.status) == [.done, .running, .pending, .pending])
        #expect(attesting.steps[1].accessibilityLabel == "Verify this device, in progress")
        #expect(attesting.steps.map(\.symbolName) == ["checkmark.circle.fill", "clock", "circle", "circle"])
        #expect(attesting.steps.map(\.tone) == [.positive, .busy, .neutral, .neutral])
        #expect(attesting.steps[0].accessibilityLabel == "Redeem the invitation, done")
        #expect(attesting.steps[3].accessibilityLabel == "Secure your credential, not started")
        let sealing = EnrollmentProgressContent(progress: .sealingCredential, format: usUTC)
        #expect(sealing.title == "Finishing Enrollment")
        #expect(sealing.steps.map(\.status) == [.done, .done, .done, .running])
        #expect(sealing.accessibilityValue == "90%")
        let screen = EnrollmentScreen(state: .finalizing(progress: .sendingPassword), format: usUTC)
        #expect(!screen.allowsCancel, "no leaving while a request runs")
        #expect(screen.step == .progress(EnrollmentProgressContent(progress: .sendingPassword, format: usUTC)))
    }

    @Test("password: empty field, weak, strong without and with a matching confirmation")
    func password() {
        let empty = PasswordSetupContent(strength: .empty, password: "", confirmation: "")
        #expect(empty.meter == nil)
        #expect(empty.problems.isEmpty)
        #expect(!empty.submit.isEnabled)
        #expect(empty.instructions.hasPrefix("Use at least 12 characters."))

        let weak = Self.meter.evaluate("short")
        let weakContent = PasswordSetupContent(strength: weak, password: "short", confirmation: "short")
        #expect(weakContent.meter?.tone == .critical)
        #expect(weakContent.problems.contains("The password must be at least 12 characters long."))
        #expect(!weakContent.submit.isEnabled, "a matching confirmation does not make a weak password acceptable")

        let strong = Self.meter.evaluate(Self.strong)
        #expect(strong.isAcceptable)
        let unconfirmed = PasswordSetupContent(strength: strong, password: Self.strong, confirmation: "")
        #expect(unconfirmed.confirmationError == nil, "no complaint before the member types a confirmation")
        #expect(!unconfirmed.submit.isEnabled)
        let mismatched = PasswordSetupContent(strength: strong, password: Self.strong, confirmation: "trombone")
        #expect(mismatched.confirmationError == "The passwords do not match.")
        #expect(!mismatched.submit.isEnabled)
        let ready = PasswordSetupContent(strength: strong, password: Self.strong, confirmation: Self.strong)
        #expect(ready.confirmationError == nil)
        #expect(ready.problems.isEmpty)
        #expect(ready.meter?.tone == .positive)
        #expect(ready.submit == ScreenAction(.submitPassword, title: "Set Password"))
        let busy = PasswordSetupContent(
            strength: strong, password: Self.strong, confirmation: Self.strong, isBusy: true)
        #expect(!busy.submit.isEnabled)
    }

    @Test("the strength meter: five levels, words, tones and what VoiceOver reads")
    func meterLevels() {
        for score in 0...4 {
            let accepted = PasswordStrengthMeterContent(
                strength: PasswordStrength(score: score, log10Guesses: 0, isAcceptable: true, reasons: []))
            #expect(accepted.level == score)
            #expect(accepted.fraction == Double(score + 1) / 5)
            #expect(accepted.label == PasswordStrengthMeterContent.labels[score])
            #expect(accepted.tone == .positive)
            #expect(accepted.accessibilityValue == "\(PasswordStrengthMeterContent.labels[score]), accepted")
        }
        let refusedLow = PasswordStrengthMeterContent(
            strength: PasswordStrength(score: 1, log10Guesses: 0, isAcceptable: false, reasons: []))
        #expect(refusedLow.tone == .critical)
        #expect(refusedLow.accessibilityValue == "Weak, not accepted")
        let refusedFair = PasswordStrengthMeterContent(
            strength: PasswordStrength(score: 2, log10Guesses: 0, isAcceptable: false, reasons: []))
        #expect(refusedFair.tone == .caution)
        let outOfRange = PasswordStrengthMeterContent(
            strength: PasswordStrength(score: 9, log10Guesses: 0, isAcceptable: true, reasons: []))
        #expect(outOfRange.level == 4)
    }

    @Test("complete: the member id and Done")
    func complete() {
        let screen = EnrollmentScreen(state: .complete(userGUID: "user-42"), format: usUTC)
        #expect(screen.title == "Enrolled")
        guard case .complete(let content) = screen.step else {
            Issue.record("expected complete, got \(screen.step)")
            return
        }
        #expect(content.badge.tone == .positive)
        #expect(content.rows == [InfoRowContent(label: "Member ID", value: "user-42")])
        #expect(content.done.kind == .done)
    }

    @Test("failure: retry when retryable, start over always")
    func failure() {
        let retryable = EnrollmentScreen(state: .error(message: "Cannot reach the server.", retryable: true))
        guard case .failure(let badge, let message, let retry, let startOver) = retryable.step else {
            Issue.record("expected failure, got \(retryable.step)")
            return
        }
        #expect(badge.tone == .critical)
        #expect(message == "Cannot reach the server.")
        #expect(retry?.kind == .retry)
        #expect(startOver.kind == .startOver)
        #expect(startOver.role == .secondary)
        let final = EnrollmentScreen(state: .error(message: "This invitation was revoked.", retryable: false))
        guard case .failure(_, _, let noRetry, let primaryStartOver) = final.step else {
            Issue.record("expected failure, got \(final.step)")
            return
        }
        #expect(noRetry == nil)
        #expect(primaryStartOver.role == .primary)
    }

    @Test("the password step of the screen carries the fields")
    func passwordStep() {
        let strong = Self.meter.evaluate(Self.strong)
        let screen = EnrollmentScreen(
            state: .settingPassword(strength: strong), password: Self.strong, confirmation: Self.strong)
        #expect(screen.title == "Create Password")
        #expect(
            screen.step
                == .password(PasswordSetupContent(strength: strong, password: Self.strong, confirmation: Self.strong)))
    }
}
