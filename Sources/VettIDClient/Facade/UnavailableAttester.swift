// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// The attester of a platform that has none: no App Attest (every Mac, the simulator, Linux) and no development
/// token configured. Every call fails with `unsupported`, so enrollment and the Gate report why instead of sending an
/// empty attestation.
public struct UnavailableAttester: DeviceAttester {
    public let format = DeviceAttestationFormat.appleAppAttest
    /// Why this platform cannot attest (``PlatformCapabilities/attestationUnavailableReason``); the message of every
    /// error.
    public let reason: String

    /// Creates the attester.
    /// - Parameter reason: Why there is no attestation (the message of its errors).
    public init(reason: String = PlatformCapabilities.linux.attestationUnavailableReason) {
        self.reason = reason
    }

    public func attestedKeyID() async throws(DeviceAttestationError) -> String? { nil }

    public func attestKey(challenge: [UInt8], deviceKeyThumbprint: [UInt8]) async throws(DeviceAttestationError)
        -> DeviceKeyAttestation
    {
        throw unavailable
    }

    public func generateAssertion(challenge: [UInt8], deviceKeyThumbprint: [UInt8]) async throws(DeviceAttestationError)
        -> DeviceKeyAssertion
    {
        throw unavailable
    }

    public func resetKey() async throws(DeviceAttestationError) {}

    var unavailable: DeviceAttestationError {
        DeviceAttestationError(code: .unsupported, message: reason)
    }
}
