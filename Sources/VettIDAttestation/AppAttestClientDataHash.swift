// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// How the clientDataHash of an attestation is derived from the server challenge.

import Crypto

/// The `clientDataHash` the app passed to `attestKey`, as the verifier must recompute it.
///
/// Apps usually pass SHA-256 of the challenge (``hashing(_:)``); Apple's own samples pass the challenge
/// bytes unhashed (``raw(_:)``). Which one applies is part of the app/server contract, so it is an
/// explicit input rather than a guess.
public struct AppAttestClientDataHash: Sendable, Hashable {
    /// The bytes appended to the authenticator data.
    public let bytes: [UInt8]

    /// SHA-256 of `clientData` (the usual case).
    public static func hashing(_ clientData: [UInt8]) -> AppAttestClientDataHash {
        AppAttestClientDataHash(bytes: Array(SHA256.hash(data: clientData)))
    }

    /// VettID's binding of a server challenge to the device's DPoP key:
    /// `SHA-256(challenge ‖ jkt)`, where `jkt` is the 32-byte RFC 7638 SHA-256 thumbprint of the device
    /// key's public JWK (the base64url-decoded `cnf.jkt`). An attestation or assertion made for one device
    /// key cannot be replayed with another.
    /// - Returns: `nil` when `keyThumbprint` is not 32 bytes.
    public static func binding(challenge: [UInt8], keyThumbprint: [UInt8]) -> AppAttestClientDataHash? {
        guard keyThumbprint.count == 32 else { return nil }
        return hashing(challenge + keyThumbprint)
    }

    /// `bytes` used as they are (Apple's samples use the raw challenge).
    public static func raw(_ bytes: [UInt8]) -> AppAttestClientDataHash {
        AppAttestClientDataHash(bytes: bytes)
    }
}
