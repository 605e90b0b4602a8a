// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCore

// The error thrown by App Attest verification.

/// An App Attest attestation or assertion was refused.
public struct AppAttestError: CodedError, Hashable {
    /// An open set of reasons, one per check.
    public struct Code: ErrorCode {
        /// The stable identifier of the reason.
        public let rawValue: String
        /// Wraps a raw identifier.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The attestation object is not the expected CBOR structure.
        public static let malformedAttestation = Code(rawValue: "malformed_attestation")
        /// `fmt` is not `apple-appattest`.
        public static let unsupportedFormat = Code(rawValue: "unsupported_format")
        /// A certificate in `x5c` cannot be parsed.
        public static let malformedCertificate = Code(rawValue: "malformed_certificate")
        /// Step 1: the certificate chain does not lead to a trusted root, or a certificate is outside its validity.
        public static let untrustedCertificateChain = Code(rawValue: "untrusted_certificate_chain")
        /// Step 4: the credential certificate has no readable nonce extension (1.2.840.113635.100.8.2).
        public static let missingNonceExtension = Code(rawValue: "missing_nonce_extension")
        /// Step 4: the nonce in the certificate is not SHA-256(authData ‖ clientDataHash).
        public static let nonceMismatch = Code(rawValue: "nonce_mismatch")
        /// Step 5: SHA-256 of the certificate's public key is not the key id.
        public static let keyIDMismatch = Code(rawValue: "key_id_mismatch")
        /// Step 6 (and assertion step 4): the rpId hash is not SHA-256 of the app id.
        public static let appIDMismatch = Code(rawValue: "app_id_mismatch")
        /// Step 7: the attestation counter is not zero.
        public static let nonZeroCounter = Code(rawValue: "non_zero_counter")
        /// Step 8: the aaguid names an environment this server does not accept.
        public static let environmentNotAllowed = Code(rawValue: "environment_not_allowed")
        /// Step 9: the credential id is not the key id.
        public static let credentialIDMismatch = Code(rawValue: "credential_id_mismatch")
        /// The authenticator data is too short or inconsistent.
        public static let malformedAuthenticatorData = Code(rawValue: "malformed_authenticator_data")
        /// The assertion object is not the expected CBOR structure.
        public static let malformedAssertion = Code(rawValue: "malformed_assertion")
        /// The assertion signature does not verify with the stored key.
        public static let invalidAssertionSignature = Code(rawValue: "invalid_assertion_signature")
        /// The assertion counter is not greater than the stored counter (a replay or a cloned key).
        public static let counterNotIncreased = Code(rawValue: "counter_not_increased")
    }

    /// Why it was refused.
    public let code: Code
    /// A human-readable detail.
    public let reason: String

    /// The same as ``reason``: what `CodedError` reads.
    public var message: String { reason }

    /// Creates an error.
    public init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }
}
