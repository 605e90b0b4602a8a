// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Crypto
public import VettIDAttestation

// What a successful App Attest attestation establishes.

/// A key that passed attestation; the server stores it under ``keyID`` with ``counter``.
public struct AttestedKey: Sendable {
    /// The 32-byte key id (SHA-256 of the public key).
    public let keyID: [UInt8]
    /// The attested P-256 public key.
    public let publicKey: P256.Signing.PublicKey
    /// The environment the key was attested in.
    public let environment: AppAttestEnvironment
    /// Apple's receipt, for later fraud-metric requests.
    public let receipt: [UInt8]
    /// The counter to store (always 0 after attestation).
    public let counter: UInt32
}
