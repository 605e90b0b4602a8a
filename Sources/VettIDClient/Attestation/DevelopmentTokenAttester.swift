// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// A ``DeviceAttester`` for simulators and CI that presents a development token configured on the server
/// (grant `urn:vettid:params:grant-type:development`). It proves nothing about the device: servers accept it
/// only when a development token is configured, never in production.
public struct DevelopmentTokenAttester: DeviceAttester, CustomStringConvertible {
    /// Always ``DeviceAttestationFormat/development``.
    public let format = DeviceAttestationFormat.development
    let token: String

    /// Creates an attester presenting `token`.
    public init(token: String) {
        self.token = token
    }

    /// Always `nil`: there is no attested key.
    public func attestedKeyID() async throws(DeviceAttestationError) -> String? { nil }

    /// The development token (no key is created).
    public func attestKey(challenge: [UInt8], deviceKeyThumbprint: [UInt8]) async throws(DeviceAttestationError)
        -> DeviceKeyAttestation
    {
        DeviceKeyAttestation(format: format, developmentToken: token)
    }

    /// The development token.
    public func generateAssertion(challenge: [UInt8], deviceKeyThumbprint: [UInt8]) async throws(DeviceAttestationError)
        -> DeviceKeyAssertion
    {
        DeviceKeyAssertion(format: format, developmentToken: token)
    }

    /// Nothing to reset.
    public func resetKey() async throws(DeviceAttestationError) {}

    /// Never shows the token.
    public var description: String { "DevelopmentTokenAttester(<redacted>)" }
}
