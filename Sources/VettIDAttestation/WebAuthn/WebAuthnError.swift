// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCore

// The error thrown when a WebAuthn object cannot be read or a passkey ceremony is refused.

/// The family of ``WebAuthnError``.
public enum WebAuthnErrorDomain: ErrorDomain {}

/// A WebAuthn object was malformed, or a registration or authentication ceremony was refused.
///
/// Each code names the check that failed (WebAuthn Level 3 §7.1 and §7.2; docs/security.md lists them with what
/// each defends against). The server answers every refusal with one wire code and logs this one.
public typealias WebAuthnError = DomainError<WebAuthnErrorDomain>

extension WebAuthnError.Code {
    /// `clientDataJSON` is not UTF-8 JSON with the members WebAuthn requires.
    public static let malformedClientData = Self(rawValue: "malformed_client_data")
    /// The attestation object is not a CBOR map of `fmt`, `attStmt` and `authData`.
    public static let malformedAttestationObject = Self(rawValue: "malformed_attestation_object")
    /// The authenticator data is truncated, has trailing bytes, or its flags disagree with its contents.
    public static let malformedAuthenticatorData = Self(rawValue: "malformed_authenticator_data")
    /// The credential public key is not a COSE key of a supported type with a consistent algorithm.
    public static let malformedPublicKey = Self(rawValue: "malformed_public_key")
    /// `type` is not `webauthn.create` (registration) or `webauthn.get` (authentication).
    public static let wrongCeremonyType = Self(rawValue: "wrong_ceremony_type")
    /// The challenge is not the one issued for this ceremony.
    public static let challengeMismatch = Self(rawValue: "challenge_mismatch")
    /// The origin is not one the relying party serves.
    public static let originMismatch = Self(rawValue: "origin_mismatch")
    /// The ceremony ran in a cross-origin frame (`crossOrigin` true or a `topOrigin`), which this relying party
    /// does not allow.
    public static let crossOriginRefused = Self(rawValue: "cross_origin_refused")
    /// `rpIdHash` is not SHA-256 of the relying party id.
    public static let rpIDMismatch = Self(rawValue: "rp_id_mismatch")
    /// The user-present flag is not set.
    public static let userNotPresent = Self(rawValue: "user_not_present")
    /// User verification is required and the user-verified flag is not set.
    public static let userNotVerified = Self(rawValue: "user_not_verified")
    /// The backup-state flag is set without the backup-eligible flag.
    public static let backupStateWithoutEligibility = Self(rawValue: "backup_state_without_eligibility")
    /// The backup-eligible flag differs from the one recorded at registration.
    public static let backupEligibilityChanged = Self(rawValue: "backup_eligibility_changed")
    /// The credential's algorithm is not among those offered.
    public static let algorithmNotAllowed = Self(rawValue: "algorithm_not_allowed")
    /// The attestation statement's format is not one this relying party accepts.
    public static let unsupportedAttestationFormat = Self(rawValue: "unsupported_attestation_format")
    /// The attestation statement does not verify.
    public static let invalidAttestationStatement = Self(rawValue: "invalid_attestation_statement")
    /// The credential id is empty or longer than 1,023 bytes, or differs from the one the response names.
    public static let invalidCredentialID = Self(rawValue: "invalid_credential_id")
    /// The credential is not one of `allowCredentials`.
    public static let credentialNotAllowed = Self(rawValue: "credential_not_allowed")
    /// The user handle does not name the credential's owner.
    public static let userHandleMismatch = Self(rawValue: "user_handle_mismatch")
    /// The assertion signature does not verify with the credential's public key.
    public static let invalidSignature = Self(rawValue: "invalid_signature")
    /// The signature counter did not increase although the stored or the new one is non-zero: a possible clone.
    public static let counterNotIncreased = Self(rawValue: "counter_not_increased")
}
