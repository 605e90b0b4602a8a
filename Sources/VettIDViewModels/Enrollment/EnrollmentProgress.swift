// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// Which step of an enrollment is running, for a progress indicator.
public enum EnrollmentProgress: Sendable, Equatable {
    /// Redeeming the invitation.
    case startingSession
    /// Attesting the device.
    case attestingDevice
    /// Sending the sealed password.
    case sendingPassword
    /// Sealing and storing the credential.
    case sealingCredential

    /// How far the enrollment is (0…1).
    public var fraction: Double {
        switch self {
        case .startingSession: 0.1
        case .attestingDevice: 0.3
        case .sendingPassword: 0.7
        case .sealingCredential: 0.9
        }
    }

    /// A short label for the step.
    public var label: String {
        switch self {
        case .startingSession: "Redeeming the invitation…"
        case .attestingDevice: "Verifying this device…"
        case .sendingPassword: "Setting your password…"
        case .sealingCredential: "Securing your credential…"
        }
    }
}
