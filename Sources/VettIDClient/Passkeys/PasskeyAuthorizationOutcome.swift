// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import VettIDAttestation

/// What a successful `ASAuthorizationController` passkey request produced, in the SDK's types: the fields of an
/// `ASAuthorizationPlatformPublicKeyCredentialRegistration` or `…Assertion`, checked and copied.
///
/// Plain Swift so that it is tested on Linux; `PlatformPasskeyAuthenticator` only reads the credential's
/// properties and hands them over. Apple declares `rawAttestationObject` as `Data?` and the assertion's
/// `rawAuthenticatorData`, `signature` and `userID` as `Data!` (implicitly unwrapped), so each is taken as
/// optional here and a missing one is a `failed` ``PasskeyError``, never a crash.
enum PasskeyAuthorizationOutcome: Sendable, Hashable {
    /// A passkey was created.
    case registered(PasskeyRegistrationResponse)
    /// A passkey signed the challenge.
    case asserted(PasskeyAssertionResponse)

    /// The transports a platform (iCloud Keychain) passkey is reported with: this device, and another device over
    /// the hybrid (QR code) transport. Apple's registration credential reports none; these are the hints the
    /// server keeps.
    static let platformTransports = ["internal", "hybrid"]

    /// A registration credential's fields.
    /// - Parameters:
    ///   - credentialID: `credentialID`.
    ///   - rawClientDataJSON: `rawClientDataJSON`.
    ///   - rawAttestationObject: `rawAttestationObject` (`Data?` on Apple's page).
    static func registration(credentialID: Data, rawClientDataJSON: Data, rawAttestationObject: Data?)
        throws(PasskeyError) -> Self
    {
        guard !credentialID.isEmpty else { throw PasskeyError(.failed, "the new passkey has no credential id") }
        guard !rawClientDataJSON.isEmpty else { throw PasskeyError(.failed, "the new passkey has no client data") }
        guard let rawAttestationObject, !rawAttestationObject.isEmpty else {
            throw PasskeyError(.failed, "the new passkey came without an attestation object")
        }
        return .registered(
            PasskeyRegistrationResponse(
                credentialID: Array(credentialID), clientDataJSON: Array(rawClientDataJSON),
                attestationObject: Array(rawAttestationObject), transports: platformTransports))
    }

    /// An assertion credential's fields.
    /// - Parameters:
    ///   - credentialID: `credentialID`.
    ///   - rawClientDataJSON: `rawClientDataJSON`.
    ///   - rawAuthenticatorData: `rawAuthenticatorData` (`Data!` on Apple's page).
    ///   - signature: `signature` (`Data!`).
    ///   - userID: `userID` (`Data!`): the user handle; an empty one is reported as none.
    static func assertion(
        credentialID: Data, rawClientDataJSON: Data, rawAuthenticatorData: Data?, signature: Data?, userID: Data?
    ) throws(PasskeyError) -> Self {
        guard !credentialID.isEmpty else { throw PasskeyError(.failed, "the passkey answer has no credential id") }
        guard !rawClientDataJSON.isEmpty else { throw PasskeyError(.failed, "the passkey answer has no client data") }
        guard let rawAuthenticatorData, !rawAuthenticatorData.isEmpty else {
            throw PasskeyError(.failed, "the passkey answer has no authenticator data")
        }
        guard let signature, !signature.isEmpty else {
            throw PasskeyError(.failed, "the passkey answer has no signature")
        }
        let userHandle = userID.flatMap { $0.isEmpty ? nil : Array($0) }
        return .asserted(
            PasskeyAssertionResponse(
                credentialID: Array(credentialID), clientDataJSON: Array(rawClientDataJSON),
                authenticatorData: Array(rawAuthenticatorData), signature: Array(signature), userHandle: userHandle))
    }

    /// The error for a credential of another kind than the request's (a password, a security key, …).
    /// - Parameter typeName: The credential's type, for the message.
    static func unexpectedCredential(_ typeName: String) -> PasskeyError {
        PasskeyError(.failed, "the authorization returned a \(typeName), not a platform passkey")
    }

    /// The registration, or `failed` if a registration request was answered with an assertion.
    func registrationResponse() throws(PasskeyError) -> PasskeyRegistrationResponse {
        guard case .registered(let response) = self else {
            throw PasskeyError(.failed, "a passkey creation was answered with a sign-in")
        }
        return response
    }

    /// The assertion, or `failed` if a sign-in request was answered with a registration.
    func assertionResponse() throws(PasskeyError) -> PasskeyAssertionResponse {
        guard case .asserted(let response) = self else {
            throw PasskeyError(.failed, "a passkey sign-in was answered with a new passkey")
        }
        return response
    }
}

/// The relying party's `userVerification` option as `ASAuthorizationPublicKeyCredentialUserVerificationPreference`
/// takes it: WebAuthn's three values; anything else is `preferred`, WebAuthn's default (a client ignores a value it
/// does not know).
enum PasskeyUserVerification: String, Sendable, Hashable, CaseIterable {
    /// The authenticator must verify the member (biometrics or passcode), or fail.
    case required
    /// Verify the member when the authenticator can.
    case preferred
    /// Do not verify the member when avoidable.
    case discouraged

    /// Reads the server's option (`required`, `preferred` or `discouraged`; case-sensitive, as in WebAuthn).
    /// - Parameter option: The options' `userVerification` string.
    init(option: String) {
        self = Self(rawValue: option) ?? .preferred
    }
}

/// A ceremony request as the platform provider takes it: checked, in `Data`, the user verification parsed.
///
/// `PlatformPasskeyAuthenticator` only passes these values to `ASAuthorizationPlatformPublicKeyCredentialProvider`;
/// the checks are here so that they are tested on Linux.
struct PlatformPasskeyOptions: Sendable, Hashable {
    /// The relying party id (`relyingPartyIdentifier`).
    let relyingPartyID: String
    /// The server's challenge.
    let challenge: Data
    /// The account name shown in the passkey sheet (creation only; empty for a sign-in).
    let name: String
    /// The user handle (creation only; empty for a sign-in).
    let userID: Data
    /// The credentials the server accepts (a sign-in; empty: any passkey of the relying party).
    let allowedCredentialIDs: [Data]
    /// The user verification preference.
    let userVerification: PasskeyUserVerification

    /// The options of a creation. The platform authenticator makes ES256 keys only, so a server that does not
    /// accept ES256 is refused here (`invalid_options`) rather than by the server after the member confirmed.
    /// - Parameter request: The server's decoded registration options.
    init(creation request: PasskeyCreationRequest) throws(PasskeyError) {
        guard !request.rpID.isEmpty else { throw PasskeyError(.invalidOptions, "the options name no relying party") }
        guard !request.challenge.isEmpty, !request.userID.isEmpty else {
            throw PasskeyError(.invalidOptions, "the options carry no challenge or no user handle")
        }
        guard request.algorithms.contains(.es256) else {
            throw PasskeyError(
                .invalidOptions, "the server does not accept ES256, the only algorithm of platform passkeys")
        }
        relyingPartyID = request.rpID
        challenge = Data(request.challenge)
        name = request.userName
        userID = Data(request.userID)
        allowedCredentialIDs = []
        userVerification = PasskeyUserVerification(option: request.userVerification)
    }

    /// The options of a sign-in.
    /// - Parameter request: The server's decoded authentication options.
    init(assertion request: PasskeyAssertionRequest) throws(PasskeyError) {
        guard !request.rpID.isEmpty else { throw PasskeyError(.invalidOptions, "the options name no relying party") }
        guard !request.challenge.isEmpty else { throw PasskeyError(.invalidOptions, "the options carry no challenge") }
        relyingPartyID = request.rpID
        challenge = Data(request.challenge)
        name = ""
        userID = Data()
        allowedCredentialIDs = request.allowedCredentialIDs.map { Data($0) }
        userVerification = PasskeyUserVerification(option: request.userVerification)
    }
}
