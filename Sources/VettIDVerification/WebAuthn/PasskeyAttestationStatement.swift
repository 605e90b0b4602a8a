// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import VettIDAttestation
import VettIDCore

/// The attestation statement formats this relying party verifies (§7.1 steps 19-23).
///
/// The options ask for `attestation: "none"`, and browsers and Apple's platform authenticator then send `none`.
/// An authenticator that sends its own statement anyway is accepted when it is `packed` self attestation
/// (`alg` and `sig` without `x5c`: the credential key signs `authData ‖ clientDataHash`). Certificate attestation
/// (`packed` with `x5c`, `tpm`, `android-key`, …) would need trust anchors for authenticator models, which this
/// relying party does not keep: it is refused with `unsupported_attestation_format` rather than accepted unchecked.
enum PasskeyAttestationStatement {
    static func verify(_ attestation: WebAuthnAttestationObject, clientDataHash: [UInt8]) throws(WebAuthnError) {
        switch attestation.format {
        case "none":
            guard case .map(let entries) = attestation.statement, entries.isEmpty else {
                throw WebAuthnError(.invalidAttestationStatement, "a none attestation statement must be empty")
            }
        case "packed":
            guard let credential = attestation.authenticatorData.attestedCredential else {
                throw WebAuthnError(.malformedAuthenticatorData, "a registration carries no attested credential data")
            }
            guard attestation.statement[textKey: "x5c"] == nil else {
                throw WebAuthnError(
                    .unsupportedAttestationFormat, "packed attestation with a certificate is not accepted here")
            }
            guard case .map(let entries) = attestation.statement, entries.count == 2,
                let algorithm = attestation.statement[textKey: "alg"]?.integerValue,
                let signature = attestation.statement[textKey: "sig"]?.bytesValue
            else {
                throw WebAuthnError(.invalidAttestationStatement, "a packed statement must hold alg and sig")
            }
            guard algorithm == credential.publicKey.algorithm.rawValue else {
                throw WebAuthnError(
                    .invalidAttestationStatement, "the statement's alg is not the credential key's algorithm")
            }
            let signed = attestation.authenticatorData.bytes + clientDataHash
            guard try PasskeySignatureVerifier(credential.publicKey).isValid(signature, for: signed) else {
                throw WebAuthnError(.invalidAttestationStatement, "the self-attestation signature does not verify")
            }
        default:
            throw WebAuthnError(
                .unsupportedAttestationFormat, "the attestation format \(attestation.format) is not accepted here")
        }
    }
}
