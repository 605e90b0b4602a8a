// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDClient

/// Where the enrollment screen is.
public enum EnrollmentState: Sendable, Equatable {
    /// Nothing has happened yet.
    case initial
    /// The camera is scanning for an invitation QR code; `error` explains why the last code was refused.
    case scanningQR(error: String?)
    /// Redeeming the invitation or attesting the device.
    case attesting(progress: EnrollmentProgress)
    /// Waiting for the vault password; `strength` is the meter's verdict on the current text (or the server's
    /// refusal).
    case settingPassword(strength: PasswordStrength)
    /// Sending the password and sealing the credential.
    case finalizing(progress: EnrollmentProgress)
    /// Enrolled; the credential is stored.
    case complete(userGUID: String)
    /// Failed; `retryable` tells whether ``EnrollmentStateMachine/retry()`` can repeat the failed step.
    case error(message: String, retryable: Bool)
}
