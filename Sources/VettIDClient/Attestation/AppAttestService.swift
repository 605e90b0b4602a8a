// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation

/// The calls ``AppAttestAttester`` makes to App Attest: `DCAppAttestService` on Apple platforms
/// (`DeviceCheckAppAttestService`), a scripted fake in tests.
///
/// Errors are reported as the platform throws them; ``AppAttestErrorClassifier`` maps `DCError` codes.
public protocol AppAttestService: Sendable {
    /// Whether App Attest works on this device.
    var isSupported: Bool { get }
    /// Creates a new key and returns its id (standard base64).
    func generateKey() async throws -> String
    /// Attests `keyID` for `clientDataHash`; returns the CBOR attestation object.
    func attestKey(_ keyID: String, clientDataHash: Data) async throws -> Data
    /// Signs an assertion over `clientDataHash` with `keyID`; returns the CBOR assertion.
    func generateAssertion(_ keyID: String, clientDataHash: Data) async throws -> Data
}
