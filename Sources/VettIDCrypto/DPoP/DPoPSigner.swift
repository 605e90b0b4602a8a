// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// The seam between DPoP proofs and the key that signs them.

/// A P-256 key that can sign DPoP proofs.
///
/// The software implementation is ``SoftwareDPoPSigner``; a Secure Enclave key implements the same
/// protocol on Apple platforms, so the private key never leaves the hardware.
public protocol DPoPSigner: Sendable {
    /// The public half, as placed in the proof's `jwk` header.
    var publicJWK: P256PublicJWK { get }

    /// Signs `message` with ES256 (ECDSA P-256 over SHA-256 of `message`).
    /// - Returns: the 64-byte raw `r || s` signature.
    func sign(_ message: [UInt8]) async throws -> [UInt8]
}
