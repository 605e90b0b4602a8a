// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// Why the camera preview could not be set up although the camera is authorized: the capture session's
/// configuration failed. The scanner then hides the viewfinder and says so (``QRScannerContent``) instead of showing
/// a black preview.
public enum CameraCaptureFailure: String, Sendable, Hashable, CaseIterable {
    /// No video camera was found when the session was configured.
    case noCamera
    /// The camera could not be opened as an input (`AVCaptureDeviceInput(device:)` threw), e.g. while another app
    /// holds it.
    case cameraUnavailable
    /// The capture session refused the camera input or the metadata output.
    case sessionRefused
    /// The camera's metadata output cannot read QR codes.
    case qrUnsupported

    /// Whether setting the session up again may work (the camera was busy or refused), as opposed to a device that
    /// cannot scan at all.
    public var isRetryable: Bool {
        switch self {
        case .cameraUnavailable, .sessionRefused: true
        case .noCamera, .qrUnsupported: false
        }
    }
}
