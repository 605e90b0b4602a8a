// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// A DPoP signer holding a P-256 private key in memory.

public import Crypto

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A ``DPoPSigner`` over a software P-256 key (for Linux, tests, and devices without a Secure Enclave).
public struct SoftwareDPoPSigner: DPoPSigner, CustomStringConvertible {
    private let privateKey: P256.Signing.PrivateKey
    /// The public half.
    public let publicJWK: P256PublicJWK

    /// Uses `privateKey`, or a fresh random key.
    public init(privateKey: P256.Signing.PrivateKey = P256.Signing.PrivateKey()) {
        self.privateKey = privateKey
        self.publicJWK = P256PublicJWK(publicKey: privateKey.publicKey)
    }

    /// Restores a key from its 32-byte raw scalar (as stored by a secure store).
    public init(rawRepresentation: some ContiguousBytes) throws {
        self.init(privateKey: try P256.Signing.PrivateKey(rawRepresentation: rawRepresentation))
    }

    /// The 32-byte raw private scalar, for a secure store. Never log it.
    public var rawRepresentation: Data { privateKey.rawRepresentation }

    public func sign(_ message: [UInt8]) async throws -> [UInt8] {
        try ES256.sign(message, with: privateKey)
    }

    /// Shows only the thumbprint, never key material.
    public var description: String { "SoftwareDPoPSigner(jkt: \(publicJWK.thumbprint))" }
}
