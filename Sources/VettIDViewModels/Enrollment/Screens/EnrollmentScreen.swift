// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import VettIDClient

/// Everything the enrollment flow shows (seed 002's `EnrollmentView` container), computed from the view model's
/// state and fields; the view lays out the current ``Step`` and maps each ``EnrollmentAction`` to a call.
///
/// ```swift
/// let screen = EnrollmentScreen(
///     state: model.state, password: model.password, confirmation: model.confirmation,
///     manualCode: model.manualCode, camera: camera, allowsManualEntry: model.allowsManualEntry)
/// switch screen.step { case .scanner(let content): … }
/// ```
public struct EnrollmentScreen: Sendable, Hashable {
    /// The part of the flow to show.
    public enum Step: Sendable, Hashable {
        /// Before scanning: what enrollment is, and the button that opens the scanner.
        case welcome(message: String, start: ScreenAction<EnrollmentAction>)
        /// The scanner.
        case scanner(QRScannerContent)
        /// A request runs (attestation, finalization).
        case progress(EnrollmentProgressContent)
        /// The password.
        case password(PasswordSetupContent)
        /// Enrolled.
        case complete(EnrollmentCompleteContent)
        /// Failed: what happened, and retry and/or start over.
        case failure(
            badge: StatusBadge, message: String, retry: ScreenAction<EnrollmentAction>?,
            startOver: ScreenAction<EnrollmentAction>)
    }

    /// The navigation title.
    public let title: String
    /// The step.
    public let step: Step
    /// Whether the member may leave the flow now (not while a request runs).
    public let allowsCancel: Bool

    /// Computes the screen.
    /// - Parameters:
    ///   - state: The view model's state.
    ///   - password: The password field.
    ///   - confirmation: The confirmation field.
    ///   - manualCode: The manual code entry.
    ///   - camera: Whether the camera may be used.
    ///   - cameraFailure: Why the authorized camera could not be set up, if it could not.
    ///   - allowsManualEntry: Whether a typed code can be redeemed (the app knows its server).
    ///   - format: How numbers read.
    public init(
        state: EnrollmentState, password: String = "", confirmation: String = "", manualCode: String = "",
        camera: CameraAuthorization = .notDetermined, cameraFailure: CameraCaptureFailure? = nil,
        allowsManualEntry: Bool = false, format: PresentationFormat = .current
    ) {
        switch state {
        case .attesting, .finalizing: allowsCancel = false
        default: allowsCancel = true
        }
        switch state {
        case .initial:
            title = "Set Up Your Vault"
            step = .welcome(
                message:
                    "Scan the QR code of the invitation you received. This device will be verified and you will "
                    + "choose the password that unlocks your vault.",
                start: ScreenAction(.startScanning, title: "Scan Invitation"))
        case .scanningQR(let error):
            title = "Scan Invitation"
            step = .scanner(
                QRScannerContent(
                    camera: camera, cameraFailure: cameraFailure, error: error, manualCode: manualCode,
                    allowsManualEntry: allowsManualEntry))
        case .attesting(let progress), .finalizing(let progress):
            title = "Enrolling"
            step = .progress(EnrollmentProgressContent(progress: progress, format: format))
        case .settingPassword(let strength):
            title = "Create Password"
            step = .password(PasswordSetupContent(strength: strength, password: password, confirmation: confirmation))
        case .complete(let userGUID):
            title = "Enrolled"
            step = .complete(EnrollmentCompleteContent(userGUID: userGUID))
        case .error(let message, let retryable):
            title = "Enrollment Failed"
            step = .failure(
                badge: StatusBadge(
                    symbolName: "exclamationmark.triangle.fill", tone: .critical, text: "Enrollment Failed"),
                message: message,
                retry: retryable ? ScreenAction(.retry, title: "Try Again") : nil,
                startOver: ScreenAction(.startOver, title: "Start Over", role: retryable ? .secondary : .primary))
        }
    }
}
