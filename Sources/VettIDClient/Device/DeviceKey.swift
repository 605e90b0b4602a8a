// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCrypto

/// The device's P-256 key as the SDK uses it: a signer for DPoP proofs and the public key's identity.
public struct DeviceKey: Sendable, CustomStringConvertible {
    /// Signs DPoP proofs (and nothing else leaves the key store).
    public let signer: any DPoPSigner

    /// Wraps a signer.
    public init(signer: any DPoPSigner) {
        self.signer = signer
    }

    /// The public key as a JWK, for the `jwk` header of proofs and for registration requests.
    public var publicJWK: P256PublicJWK { signer.publicJWK }

    /// The RFC 7638 thumbprint, base64url (the `cnf.jkt` of tokens bound to this key).
    public var thumbprint: String { signer.publicJWK.thumbprint }

    /// The raw 32-byte SHA-256 thumbprint, as bound into App Attest client data
    /// (`SHA-256(challenge ‖ jkt_bytes)`).
    public var thumbprintBytes: [UInt8] { Base64URL.decode(thumbprint) ?? [] }

    /// Shows only the thumbprint.
    public var description: String { "DeviceKey(jkt: \(thumbprint))" }
}
