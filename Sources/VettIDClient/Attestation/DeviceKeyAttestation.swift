// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation

/// What an attester hands the server to register its key: an App Attest-format attestation object and its key
/// id, or a development token.
///
/// Its fields map one to one onto the wire (`format`, `key_id`, `attestation_object`, `development_token`).
public struct DeviceKeyAttestation: Sendable {
    /// How the server must verify it.
    public var format: DeviceAttestationFormat
    /// The attested key's id: standard base64 of the 32-byte SHA-256 of its public key (`nil` for development).
    public var keyID: String?
    /// The CBOR attestation object (`nil` for development).
    public var attestationObject: Data?
    /// The development token (only for ``DeviceAttestationFormat/development``).
    public var developmentToken: String?

    /// Creates an attestation.
    public init(
        format: DeviceAttestationFormat, keyID: String? = nil, attestationObject: Data? = nil,
        developmentToken: String? = nil
    ) {
        self.format = format
        self.keyID = keyID
        self.attestationObject = attestationObject
        self.developmentToken = developmentToken
    }
}
