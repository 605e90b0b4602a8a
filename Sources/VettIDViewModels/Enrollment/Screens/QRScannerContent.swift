// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// The invitation scanner (seed 002's `QRScannerView`): the camera when it may be used, why it may not, the last
/// refused code, and the manual entry fallback.
public struct QRScannerContent: Sendable, Hashable {
    /// The manual code entry under the camera.
    public struct ManualEntry: Sendable, Hashable {
        /// The field's label.
        public let label: String
        /// The placeholder (`XXXX-XXXX`).
        public let placeholder: String
        /// The formatted text (``InvitationCodeInput/format(_:)``).
        public let text: String
        /// Redeem the typed code; enabled once the code is complete.
        public let submit: ScreenAction<EnrollmentAction>
    }

    /// What to do, above the camera.
    public let instructions: String
    /// Whether the camera preview runs.
    public let showsCamera: Bool
    /// Why the camera is not shown, with what can help (ask for access, open Settings, try again), if it is not.
    public let cameraBanner: BannerContent<EnrollmentAction>?
    /// Why the last scanned or typed code was refused.
    public let error: BannerContent<EnrollmentAction>?
    /// The manual entry, or `nil` when the app knows no server to send a typed code to (a QR code names it).
    public let manualEntry: ManualEntry?

    /// Computes the scanner.
    /// - Parameters:
    ///   - camera: Whether the camera may be used.
    ///   - cameraFailure: Why the authorized camera could not be set up, if it could not
    ///     (``EnrollmentViewModel/cameraFailure``); the viewfinder is then hidden, as a black preview would be all
    ///     that shows.
    ///   - error: Why the last code was refused (``EnrollmentState/scanningQR(error:)``).
    ///   - manualCode: The manual entry's text as typed.
    ///   - allowsManualEntry: Whether the app has a server for typed codes.
    ///   - isBusy: Whether a request runs.
    public init(
        camera: CameraAuthorization, cameraFailure: CameraCaptureFailure? = nil, error: String?, manualCode: String,
        allowsManualEntry: Bool, isBusy: Bool = false
    ) {
        let fallback = allowsManualEntry ? " Type the code from your invitation instead." : ""
        switch camera {
        case .authorized:
            if let cameraFailure {
                showsCamera = false
                cameraBanner = Self.banner(for: cameraFailure, fallback: fallback)
            } else {
                showsCamera = true
                cameraBanner = nil
            }
        case .notDetermined:
            showsCamera = false
            cameraBanner = BannerContent(
                tone: .neutral,
                message: "VettID uses the camera only to read the invitation's QR code.",
                action: ScreenAction(.requestCameraAccess, title: "Allow Camera"))
        case .denied:
            showsCamera = false
            cameraBanner = BannerContent(
                tone: .caution,
                message: "Camera access is off. Turn it on in Settings to scan the QR code." + fallback,
                action: ScreenAction(.openSettings, title: "Open Settings", role: .secondary))
        case .restricted:
            showsCamera = false
            cameraBanner = BannerContent(
                tone: .caution, message: "The camera is restricted on this device." + fallback)
        case .unavailable:
            showsCamera = false
            cameraBanner = BannerContent(tone: .neutral, message: "This device has no camera." + fallback)
        }
        instructions =
            showsCamera
            ? "Point the camera at the QR code of your VettID invitation."
            : "Scan the QR code of your VettID invitation."
        self.error = error.map { BannerContent(tone: .critical, message: $0) }
        if allowsManualEntry {
            let text = InvitationCodeInput.format(manualCode)
            manualEntry = ManualEntry(
                label: "Invitation code",
                placeholder: "XXXX-XXXX",
                text: text,
                submit: ScreenAction(
                    .submitCode, title: "Continue",
                    isEnabled: InvitationCodeInput.isComplete(text) && !isBusy,
                    role: showsCamera ? .secondary : .primary))
        } else {
            manualEntry = nil
        }
    }

    /// The banner for a camera that is authorized but could not be set up.
    static func banner(for failure: CameraCaptureFailure, fallback: String) -> BannerContent<EnrollmentAction> {
        let message =
            switch failure {
            case .noCamera: "No camera was found."
            case .cameraUnavailable: "The camera could not be opened. Another app may be using it."
            case .sessionRefused: "The camera could not be started."
            case .qrUnsupported: "This camera cannot read QR codes."
            }
        return BannerContent(
            tone: .caution, message: message + fallback,
            action: failure.isRetryable ? ScreenAction(.retryCamera, title: "Try Again", role: .secondary) : nil)
    }
}
