// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// A COSE signature algorithm a passkey may use (IANA COSE Algorithms registry).
public enum COSEAlgorithm: Int, Sendable, Hashable, CaseIterable, Codable {
    /// ECDSA with SHA-256 on P-256, signatures in ASN.1 DER.
    case es256 = -7
    /// EdDSA; with a COSE OKP key on Ed25519.
    case edDSA = -8
    /// RSASSA-PKCS1-v1_5 with SHA-256.
    case rs256 = -257
}
