// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// What the buttons of the enrollment screens do; the view maps each to an ``EnrollmentViewModel`` call or a
/// platform action.
public enum EnrollmentAction: String, Sendable, Hashable, CaseIterable {
    /// Open the scanner (``EnrollmentViewModel/beginScanning()``).
    case startScanning
    /// Ask for camera access (the platform's prompt).
    case requestCameraAccess
    /// Open the app's page in Settings (camera access was refused).
    case openSettings
    /// Set the camera up again after it failed to start (``EnrollmentViewModel/retryCamera()``).
    case retryCamera
    /// Redeem the typed code (``EnrollmentViewModel/submitCode()``).
    case submitCode
    /// Send the password (``EnrollmentViewModel/submitPassword()``).
    case submitPassword
    /// Repeat the failed step (``EnrollmentViewModel/retry()``).
    case retry
    /// Start over with a new invitation (``EnrollmentViewModel/reset()``).
    case startOver
    /// Leave the finished enrollment.
    case done
}
