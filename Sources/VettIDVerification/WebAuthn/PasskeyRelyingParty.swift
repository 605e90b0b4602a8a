// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
public import VettIDAttestation
public import VettIDCore

/// The relying party's checks of passkey ceremonies (WebAuthn Level 3 §7.1 registration, §7.2 authentication),
/// as pure functions of the response, the ceremony the server issued and, for an authentication, the stored
/// credential. The server keeps challenges and credentials; nothing here does I/O.
///
/// Each refusal is a `WebAuthnError` whose code names the step (docs/security.md, "Passkeys").
public struct PasskeyRelyingParty: Sendable {
    /// Whether a ceremony requires user verification (`userVerification` of the options).
    public enum UserVerification: String, Sendable, Hashable, CaseIterable {
        /// The UV flag must be set.
        case required
        /// Asked for, not checked.
        case preferred
        /// Not asked for, not checked.
        case discouraged
    }

    /// Who the relying party is and what it accepts.
    public struct Configuration: Sendable, Hashable {
        /// The relying party id: the registrable domain credentials are scoped to, e.g. `vettid.example`.
        public let rpID: String
        /// The exact origins ceremonies may run on, e.g. `https://vettid.example` (an app's ceremonies through
        /// `ASAuthorization` carry `https://` + the relying party id).
        public let origins: Set<String>
        /// The user verification the options ask for and this relying party enforces when `required`.
        public let userVerification: UserVerification
        /// The algorithms offered in `pubKeyCredParams`, in preference order.
        public let algorithms: [COSEAlgorithm]

        /// Creates a configuration.
        /// - Parameters:
        ///   - rpID: The relying party id.
        ///   - origins: The exact origins ceremonies may run on.
        ///   - userVerification: The user verification policy (default `preferred`).
        ///   - algorithms: The algorithms offered (default ES256, EdDSA, RS256).
        public init(
            rpID: String, origins: Set<String>, userVerification: UserVerification = .preferred,
            algorithms: [COSEAlgorithm] = [.es256, .edDSA, .rs256]
        ) {
            self.rpID = rpID
            self.origins = origins
            self.userVerification = userVerification
            self.algorithms = algorithms
        }
    }

    /// A credential a registration created, to be stored.
    public struct NewCredential: Sendable, Hashable {
        /// The credential id.
        public let credentialID: [UInt8]
        /// The credential public key.
        public let publicKey: COSEKey
        /// The signature counter at registration.
        public let signCount: UInt32
        /// BE: whether the credential may be synced (fixed for its life).
        public let backupEligible: Bool
        /// BS: whether it is backed up now.
        public let backupState: Bool
        /// Whether the user was verified at registration.
        public let userVerified: Bool
        /// The authenticator model's AAGUID.
        public let aaguid: [UInt8]
        /// The attestation statement format that was verified (`none` or `packed` self attestation).
        public let attestationFormat: String
    }

    /// A stored credential, as an authentication needs it.
    public struct StoredCredential: Sendable, Hashable {
        /// The credential id.
        public let credentialID: [UInt8]
        /// The credential public key.
        public let publicKey: COSEKey
        /// The last signature counter accepted.
        public let signCount: UInt32
        /// BE as recorded at registration.
        public let backupEligible: Bool
        /// The user handle of the credential's owner.
        public let ownerUserHandle: [UInt8]

        /// Creates a stored credential.
        /// - Parameters:
        ///   - credentialID: The credential id.
        ///   - publicKey: The credential public key.
        ///   - signCount: The last signature counter accepted.
        ///   - backupEligible: BE as recorded at registration.
        ///   - ownerUserHandle: The user handle of the credential's owner.
        public init(
            credentialID: [UInt8], publicKey: COSEKey, signCount: UInt32, backupEligible: Bool,
            ownerUserHandle: [UInt8]
        ) {
            self.credentialID = credentialID
            self.publicKey = publicKey
            self.signCount = signCount
            self.backupEligible = backupEligible
            self.ownerUserHandle = ownerUserHandle
        }
    }

    /// What a verified authentication changes on the stored credential.
    public struct VerifiedAssertion: Sendable, Hashable {
        /// The new signature counter.
        public let signCount: UInt32
        /// BS now.
        public let backupState: Bool
        /// Whether the user was verified.
        public let userVerified: Bool
    }

    /// The longest credential id accepted (§7.1: "at most 1023 bytes").
    public static let maximumCredentialIDLength = 1023

    /// The configuration.
    public let configuration: Configuration
    private let rpIDHash: [UInt8]

    /// Creates a relying party.
    /// - Parameter configuration: Who the relying party is and what it accepts.
    public init(configuration: Configuration) {
        self.configuration = configuration
        self.rpIDHash = Array(SHA256.hash(data: Array(configuration.rpID.utf8)))
    }

    /// Verifies a registration (§7.1). The caller then checks the credential id is not registered yet (step 25)
    /// and stores the result.
    /// - Parameters:
    ///   - response: The authenticator's response.
    ///   - challenge: The challenge issued for this ceremony (already taken from the server's single-use store).
    /// - Returns: The credential to store.
    /// - Throws: `WebAuthnError`.
    public func verifyRegistration(
        _ response: PasskeyRegistrationResponse, challenge: [UInt8]
    ) throws(WebAuthnError) -> NewCredential {
        // Steps 5-10: the client data.
        let clientData = try CollectedClientData(json: response.clientDataJSON)
        try check(clientData, type: .create, challenge: challenge)
        // Step 12: the attestation object.
        let attestation = try WebAuthnAttestationObject(bytes: response.attestationObject)
        let authenticatorData = attestation.authenticatorData
        // Steps 13-17: rpIdHash, UP, UV, the backup flags.
        try check(authenticatorData)
        guard let credential = authenticatorData.attestedCredential else {
            throw WebAuthnError(.malformedAuthenticatorData, "a registration carries no attested credential data")
        }
        // Step 18: the algorithm is one that was offered.
        guard configuration.algorithms.contains(credential.publicKey.algorithm) else {
            throw WebAuthnError(
                .algorithmNotAllowed, "the credential uses \(credential.publicKey.algorithm), which was not offered")
        }
        // A key that is not a valid point or modulus is refused now rather than at its first sign-in.
        _ = try PasskeySignatureVerifier(credential.publicKey)
        // Steps 19-23: the attestation statement (formats `none` and `packed` self attestation).
        try PasskeyAttestationStatement.verify(attestation, clientDataHash: clientData.hash)
        // Step 24 and the response's own id.
        guard !credential.credentialID.isEmpty, credential.credentialID.count <= Self.maximumCredentialIDLength
        else {
            throw WebAuthnError(.invalidCredentialID, "the credential id is empty or longer than 1,023 bytes")
        }
        guard credential.credentialID == response.credentialID else {
            throw WebAuthnError(.invalidCredentialID, "the response's id is not the attested credential id")
        }
        return NewCredential(
            credentialID: credential.credentialID, publicKey: credential.publicKey,
            signCount: authenticatorData.signCount,
            backupEligible: authenticatorData.flags.contains(.backupEligible),
            backupState: authenticatorData.flags.contains(.backupState),
            userVerified: authenticatorData.flags.contains(.userVerified), aaguid: credential.aaguid,
            attestationFormat: attestation.format)
    }

    /// Verifies an authentication (§7.2).
    /// - Parameters:
    ///   - response: The authenticator's response.
    ///   - challenge: The challenge issued for this ceremony (already taken from the server's single-use store).
    ///   - allowedCredentialIDs: The ceremony's `allowCredentials` (empty for a discoverable sign-in).
    ///   - identifiedUserHandle: The handle of the member the ceremony was started for, or `nil` when the member
    ///     is identified by the credential (a discoverable sign-in: the response must then carry a user handle).
    ///   - credential: The stored credential the response names.
    /// - Returns: What to update on the stored credential.
    /// - Throws: `WebAuthnError`.
    public func verifyAssertion(
        _ response: PasskeyAssertionResponse, challenge: [UInt8], allowedCredentialIDs: [[UInt8]],
        identifiedUserHandle: [UInt8]?, credential: StoredCredential
    ) throws(WebAuthnError) -> VerifiedAssertion {
        // Step 5: allowCredentials.
        guard response.credentialID == credential.credentialID else {
            throw WebAuthnError(.invalidCredentialID, "the stored credential is not the one the response names")
        }
        if !allowedCredentialIDs.isEmpty, !allowedCredentialIDs.contains(response.credentialID) {
            throw WebAuthnError(.credentialNotAllowed, "the credential is not one of allowCredentials")
        }
        // Step 6: the member the ceremony is for owns the credential; the user handle, when given, names the owner.
        if let identifiedUserHandle, identifiedUserHandle != credential.ownerUserHandle {
            throw WebAuthnError(.credentialNotAllowed, "the credential belongs to another member")
        }
        if let userHandle = response.userHandle, !userHandle.isEmpty {
            guard userHandle == credential.ownerUserHandle else {
                throw WebAuthnError(.userHandleMismatch, "the user handle is not the credential owner's")
            }
        } else if identifiedUserHandle == nil {
            throw WebAuthnError(.userHandleMismatch, "a discoverable sign-in must return the user handle")
        }
        // Steps 8-14: the client data.
        let clientData = try CollectedClientData(json: response.clientDataJSON)
        try check(clientData, type: .get, challenge: challenge)
        // Steps 15-18: rpIdHash, UP, UV, the backup flags.
        let authenticatorData = try WebAuthnAuthenticatorData(bytes: response.authenticatorData)
        guard authenticatorData.attestedCredential == nil else {
            throw WebAuthnError(.malformedAuthenticatorData, "an assertion carries attested credential data")
        }
        try check(authenticatorData)
        guard authenticatorData.flags.contains(.backupEligible) == credential.backupEligible else {
            throw WebAuthnError(.backupEligibilityChanged, "the backup-eligible flag changed since registration")
        }
        // Steps 20-21: the signature over authenticatorData ‖ SHA-256(clientDataJSON).
        let signed = response.authenticatorData + clientData.hash
        guard try PasskeySignatureVerifier(credential.publicKey).isValid(response.signature, for: signed) else {
            throw WebAuthnError(.invalidSignature, "the assertion signature does not verify")
        }
        // Step 22: the signature counter.
        let count = authenticatorData.signCount
        if count != 0 || credential.signCount != 0, count <= credential.signCount {
            throw WebAuthnError(
                .counterNotIncreased,
                "the signature counter went from \(credential.signCount) to \(count): the credential may be cloned")
        }
        return VerifiedAssertion(
            signCount: count, backupState: authenticatorData.flags.contains(.backupState),
            userVerified: authenticatorData.flags.contains(.userVerified))
    }

    /// The client data checks both ceremonies share: `type`, challenge, origin, cross-origin.
    private func check(
        _ clientData: CollectedClientData, type: CollectedClientData.CeremonyType, challenge: [UInt8]
    ) throws(WebAuthnError) {
        guard clientData.type == type.rawValue else {
            throw WebAuthnError(.wrongCeremonyType, "the client data's type is not \(type.rawValue)")
        }
        guard clientData.challenge == challenge else {
            throw WebAuthnError(.challengeMismatch, "the client data's challenge is not the issued one")
        }
        guard configuration.origins.contains(clientData.origin) else {
            throw WebAuthnError(.originMismatch, "the origin \(clientData.origin) is not one this server serves")
        }
        guard !clientData.crossOrigin, clientData.topOrigin == nil else {
            throw WebAuthnError(.crossOriginRefused, "the ceremony ran in a cross-origin frame")
        }
    }

    /// The authenticator data checks both ceremonies share: rpIdHash, UP, UV, BS without BE.
    private func check(_ authenticatorData: WebAuthnAuthenticatorData) throws(WebAuthnError) {
        guard authenticatorData.rpIDHash == rpIDHash else {
            throw WebAuthnError(.rpIDMismatch, "the rpIdHash is not SHA-256 of \(configuration.rpID)")
        }
        let flags = authenticatorData.flags
        guard flags.contains(.userPresent) else {
            throw WebAuthnError(.userNotPresent, "the user-present flag is not set")
        }
        if configuration.userVerification == .required, !flags.contains(.userVerified) {
            throw WebAuthnError(.userNotVerified, "user verification is required and was not performed")
        }
        if flags.contains(.backupState), !flags.contains(.backupEligible) {
            throw WebAuthnError(
                .backupStateWithoutEligibility, "the backup-state flag is set without backup eligibility")
        }
    }
}
