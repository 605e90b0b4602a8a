// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// Proves to the server that requests come from the genuine app on a real device, bound to the device's DPoP key.
///
/// Every object an attester produces binds the server's challenge to the device key:
/// `clientDataHash = SHA-256(challenge ‖ jkt_bytes)` (`AppAttestClientDataHash.binding`), so an attestation or
/// assertion made for one device key cannot be used with another. Use a new server challenge for
/// ``attestKey(challenge:deviceKeyThumbprint:)`` and for every ``generateAssertion(challenge:deviceKeyThumbprint:)``:
/// challenges are single use.
///
/// Implementations: ``AppAttestAttester`` (Apple App Attest), `SoftwareDeviceAttester` (VettIDSoftwareAttestationClient) (App Attest-format
/// objects under a software root, for Linux, simulators and CI) and ``DevelopmentTokenAttester``.
public protocol DeviceAttester: Sendable {
    /// The format the server verifies.
    var format: DeviceAttestationFormat { get }

    /// The id of the key attested by the last successful ``attestKey(challenge:deviceKeyThumbprint:)``, or `nil`.
    func attestedKeyID() async throws(DeviceAttestationError) -> String?

    /// Creates a new attestation key and attests it for `challenge`, bound to the device key.
    /// - Parameters:
    ///   - challenge: The raw bytes of a fresh server challenge.
    ///   - deviceKeyThumbprint: The raw 32-byte RFC 7638 thumbprint of the device's DPoP key.
    func attestKey(challenge: [UInt8], deviceKeyThumbprint: [UInt8]) async throws(DeviceAttestationError)
        -> DeviceKeyAttestation

    /// Signs an assertion over `challenge` with the attested key, bound to the device key.
    /// - Throws: `DeviceAttestationError.Code.keyNotAttested` without an attested key;
    ///   `DeviceAttestationError.Code.invalidKey` when the platform lost the key (it has been reset: attest and
    ///   register a new key, then try once more).
    func generateAssertion(challenge: [UInt8], deviceKeyThumbprint: [UInt8]) async throws(DeviceAttestationError)
        -> DeviceKeyAssertion

    /// Forgets the attested key; the next attestation creates a new one.
    func resetKey() async throws(DeviceAttestationError)
}
