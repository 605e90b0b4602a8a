// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// The next step of an enrollment session, as the server names it (an open set).
public struct EnrollmentStep: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The wire value.
    public let rawValue: String
    /// Creates a step from its wire value.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The wire value.
    public var description: String { rawValue }

    /// Submit the device attestation.
    public static let attestation = EnrollmentStep(rawValue: "attestation")
    /// Set the vault password.
    public static let password = EnrollmentStep(rawValue: "password")
    /// Finalize (seal the credential).
    public static let finalize = EnrollmentStep(rawValue: "finalize")
    /// Nothing left to do.
    public static let complete = EnrollmentStep(rawValue: "complete")
}
