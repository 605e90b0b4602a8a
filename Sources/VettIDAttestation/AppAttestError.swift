// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCore

// The error thrown by App Attest verification.

/// The family of ``AppAttestError``.
public enum AppAttestErrorDomain: ErrorDomain {}

/// An App Attest attestation or assertion was refused.
public typealias AppAttestError = DomainError<AppAttestErrorDomain>

extension AppAttestError.Code {
    /// The attestation object is not the expected CBOR structure.
    public static let malformedAttestation = Self(rawValue: "malformed_attestation")
    /// `fmt` is not `apple-appattest`.
    public static let unsupportedFormat = Self(rawValue: "unsupported_format")
    /// A certificate in `x5c` cannot be parsed.
    public static let malformedCertificate = Self(rawValue: "malformed_certificate")
    /// Step 1: the certificate chain does not lead to a trusted root, or a certificate is outside its validity.
    public static let untrustedCertificateChain = Self(rawValue: "untrusted_certificate_chain")
    /// Step 4: the credential certificate has no readable nonce extension (1.2.840.113635.100.8.2).
    public static let missingNonceExtension = Self(rawValue: "missing_nonce_extension")
    /// Step 4: the nonce in the certificate is not SHA-256(authData ‖ clientDataHash).
    public static let nonceMismatch = Self(rawValue: "nonce_mismatch")
    /// Step 5: SHA-256 of the certificate's public key is not the key id.
    public static let keyIDMismatch = Self(rawValue: "key_id_mismatch")
    /// Step 6 (and assertion step 4): the rpId hash is not SHA-256 of the app id.
    public static let appIDMismatch = Self(rawValue: "app_id_mismatch")
    /// Step 7: the attestation counter is not zero.
    public static let nonZeroCounter = Self(rawValue: "non_zero_counter")
    /// Step 8: the aaguid names an environment this server does not accept.
    public static let environmentNotAllowed = Self(rawValue: "environment_not_allowed")
    /// Step 9: the credential id is not the key id.
    public static let credentialIDMismatch = Self(rawValue: "credential_id_mismatch")
    /// The authenticator data is too short or inconsistent.
    public static let malformedAuthenticatorData = Self(rawValue: "malformed_authenticator_data")
    /// The assertion object is not the expected CBOR structure.
    public static let malformedAssertion = Self(rawValue: "malformed_assertion")
    /// The assertion signature does not verify with the stored key.
    public static let invalidAssertionSignature = Self(rawValue: "invalid_assertion_signature")
    /// The assertion counter is not greater than the stored counter (a replay or a cloned key).
    public static let counterNotIncreased = Self(rawValue: "counter_not_increased")
}

extension AppAttestError {
    /// The same as `message` (the name this error gave it first).
    public var reason: String { message }
}
