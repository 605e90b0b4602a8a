// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCrypto

// The result of a successful DPoP verification.

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A DPoP proof that passed every check.
public struct VerifiedDPoPProof: Sendable {
    /// The proof's public key.
    public let jwk: P256PublicJWK
    /// The RFC 7638 thumbprint of ``jwk``: the `cnf.jkt` to bind tokens to.
    public let thumbprint: String
    /// The proof's `jti`.
    public let jti: String
    /// The proof's `iat`.
    public let issuedAt: Date
    /// The proof's `nonce`, if any.
    public let nonce: String?
    /// All claims, including extra ones.
    public let claims: JSONValue
}
