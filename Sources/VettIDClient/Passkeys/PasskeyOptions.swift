// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import VettIDAPI
import VettIDAttestation
import VettIDCrypto

// The server's WebAuthn JSON (options in, responses out) and the authenticator's bytes.

extension PasskeyCreationRequest {
    /// Decodes the server's `PublicKeyCredentialCreationOptionsJSON`.
    init(_ options: Components.Schemas.PasskeyCreationOptions) throws(PasskeyError) {
        guard let challenge = Base64URL.decode(options.challenge), !challenge.isEmpty,
            let userID = Base64URL.decode(options.user.id), !userID.isEmpty
        else { throw PasskeyError(.invalidOptions, "the options' challenge or user id is not base64url") }
        var excluded: [[UInt8]] = []
        for descriptor in options.excludeCredentials {
            guard let id = Base64URL.decode(descriptor.id) else {
                throw PasskeyError(.invalidOptions, "an excluded credential id is not base64url")
            }
            excluded.append(id)
        }
        self.init(
            rpID: options.rp.id, rpName: options.rp.name, challenge: challenge, userID: userID,
            userName: options.user.name, userDisplayName: options.user.displayName, excludedCredentialIDs: excluded,
            algorithms: options.pubKeyCredParams.compactMap { COSEAlgorithm(rawValue: $0.alg) },
            userVerification: options.authenticatorSelection.userVerification)
    }
}

extension PasskeyAssertionRequest {
    /// Decodes the server's `PublicKeyCredentialRequestOptionsJSON`.
    init(_ options: Components.Schemas.PasskeyRequestOptions) throws(PasskeyError) {
        guard let challenge = Base64URL.decode(options.challenge), !challenge.isEmpty else {
            throw PasskeyError(.invalidOptions, "the options' challenge is not base64url")
        }
        var allowed: [[UInt8]] = []
        for descriptor in options.allowCredentials {
            guard let id = Base64URL.decode(descriptor.id) else {
                throw PasskeyError(.invalidOptions, "an allowed credential id is not base64url")
            }
            allowed.append(id)
        }
        self.init(
            rpID: options.rpId, challenge: challenge, allowedCredentialIDs: allowed,
            userVerification: options.userVerification)
    }
}

extension Components.Schemas.PasskeyRegistrationResponseJSON {
    /// WebAuthn's `RegistrationResponseJSON` of an authenticator's answer.
    init(_ response: PasskeyRegistrationResponse) {
        let id = Base64URL.encode(response.credentialID)
        self.init(
            id: id, rawId: id, _type: .publicKey, authenticatorAttachment: "platform",
            response: .init(
                clientDataJSON: Base64URL.encode(response.clientDataJSON),
                attestationObject: Base64URL.encode(response.attestationObject), transports: response.transports))
    }
}

extension Components.Schemas.PasskeyAuthenticationResponseJSON {
    /// WebAuthn's `AuthenticationResponseJSON` of an authenticator's answer.
    init(_ response: PasskeyAssertionResponse) {
        let id = Base64URL.encode(response.credentialID)
        self.init(
            id: id, rawId: id, _type: .publicKey, authenticatorAttachment: "platform",
            response: .init(
                clientDataJSON: Base64URL.encode(response.clientDataJSON),
                authenticatorData: Base64URL.encode(response.authenticatorData),
                signature: Base64URL.encode(response.signature), userHandle: response.userHandle.map(Base64URL.encode)))
    }
}
