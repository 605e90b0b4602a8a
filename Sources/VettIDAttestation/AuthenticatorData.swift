// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCore

// WebAuthn-style authenticator data of an App Attest attestation.

/// Parsed attestation authenticator data (assertions use ``AssertionAuthenticatorData``): `rpIdHash(32) ‖ flags(1) ‖ counter(4, big-endian)` and, when attested
/// credential data is present, `aaguid(16) ‖ credentialIdLength(2) ‖ credentialId ‖ COSE key`.
///
/// Bytes after the credential id (the COSE key, and the extension map Apple adds from iOS 27 without
/// setting the ED flag) are kept but not interpreted, so trailing data never makes parsing fail.
public struct AuthenticatorData: Sendable, Hashable {
    /// SHA-256 of the app id (`TeamID.bundleID`).
    public let rpIDHash: [UInt8]
    /// The flags byte.
    public let flags: UInt8
    /// The signature counter.
    public let counter: UInt32
    /// The aaguid, when attested credential data is present.
    public let aaguid: [UInt8]?
    /// The credential id, when attested credential data is present.
    public let credentialID: [UInt8]?
    /// Everything after the credential id (COSE key and extensions), uninterpreted.
    public let trailingData: [UInt8]

    /// Parses authenticator data; attested credential data is read when at least 55 bytes are present.
    public init(bytes: [UInt8]) throws(AppAttestError) {
        guard bytes.count >= 37 else {
            throw AppAttestError(.malformedAuthenticatorData, "authenticator data is shorter than 37 bytes")
        }
        rpIDHash = Array(bytes[0..<32])
        flags = bytes[32]
        counter = bytes[33..<37].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        if bytes.count == 37 {
            aaguid = nil
            credentialID = nil
            trailingData = []
            return
        }
        guard bytes.count >= 55 else {
            throw AppAttestError(.malformedAuthenticatorData, "attested credential data is truncated")
        }
        aaguid = Array(bytes[37..<53])
        let length = Int(bytes[53]) << 8 | Int(bytes[54])
        guard bytes.count >= 55 + length else {
            throw AppAttestError(.malformedAuthenticatorData, "the credential id is truncated")
        }
        credentialID = Array(bytes[55..<(55 + length)])
        trailingData = Array(bytes[(55 + length)...])
    }
}
