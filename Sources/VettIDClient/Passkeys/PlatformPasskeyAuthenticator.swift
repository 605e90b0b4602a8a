// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

#if canImport(AuthenticationServices)
    // Written for Apple platforms. Type-checked on Linux against Tests/AppleAPIShims (scripts/check-apple-only, in
    // the test command); never run on a device by this project: test it on one before relying on it (docs/ios.md,
    // "Passkeys"). Every decision is in Linux-tested types: PlatformPasskeyOptions (the request's values),
    // PasskeyAuthorizationOutcome (the credential's fields), PasskeyAuthorizationFailure (the error codes) and
    // PasskeyCeremonyCompletion (one answer per ceremony).

    public import AuthenticationServices
    import Foundation
    public import VettIDAttestation

    /// ``PasskeyAuthenticator`` over Apple's platform authenticator (passkeys in iCloud Keychain), through
    /// `ASAuthorizationController` and `ASAuthorizationPlatformPublicKeyCredentialProvider`.
    ///
    /// The app needs the associated domain `webcredentials:<relying party id>` and the server's
    /// `apple-app-site-association` listing it (docs/ios.md, "Passkeys"); without them the system refuses the
    /// request (`failed`). The member cancelling the system sheet is `cancelled`.
    ///
    /// ```swift
    /// let passkeys = PlatformPasskeyAuthenticator { keyWindow() }
    /// try await vettid.auth.signInWithPasskey(using: passkeys, email: email)
    /// ```
    @MainActor
    public final class PlatformPasskeyAuthenticator: PasskeyAuthenticator {
        private let presentationAnchor: @MainActor () -> ASPresentationAnchor

        /// Creates the authenticator.
        /// - Parameter presentationAnchor: The window the system's passkey sheet is presented from (the key window of
        ///   the scene that asks), asked for each ceremony.
        public init(presentationAnchor: @escaping @MainActor () -> ASPresentationAnchor) {
            self.presentationAnchor = presentationAnchor
        }

        public func createPasskey(
            _ request: PasskeyCreationRequest
        ) async throws(PasskeyError) -> PasskeyRegistrationResponse {
            let options = try PlatformPasskeyOptions(creation: request)
            let provider = ASAuthorizationPlatformPublicKeyCredentialProvider(
                relyingPartyIdentifier: options.relyingPartyID)
            let registration = provider.createCredentialRegistrationRequest(
                challenge: options.challenge, name: options.name, userID: options.userID)
            registration.userVerificationPreference = Self.preference(options.userVerification)
            let ceremony = PasskeyAuthorizationCeremony(request: registration, anchor: presentationAnchor)
            return try await ceremony.run().registrationResponse()
        }

        public func assertPasskey(
            _ request: PasskeyAssertionRequest
        ) async throws(PasskeyError) -> PasskeyAssertionResponse {
            let options = try PlatformPasskeyOptions(assertion: request)
            let provider = ASAuthorizationPlatformPublicKeyCredentialProvider(
                relyingPartyIdentifier: options.relyingPartyID)
            let assertion = provider.createCredentialAssertionRequest(challenge: options.challenge)
            assertion.allowedCredentials = options.allowedCredentialIDs.map {
                ASAuthorizationPlatformPublicKeyCredentialDescriptor(credentialID: $0)
            }
            assertion.userVerificationPreference = Self.preference(options.userVerification)
            let ceremony = PasskeyAuthorizationCeremony(request: assertion, anchor: presentationAnchor)
            return try await ceremony.run().assertionResponse()
        }

        private static func preference(
            _ value: PasskeyUserVerification
        ) -> ASAuthorizationPublicKeyCredentialUserVerificationPreference {
            switch value {
            case .required: .required
            case .preferred: .preferred
            case .discouraged: .discouraged
            }
        }
    }

    /// One `ASAuthorizationController` request: its delegate and presentation context, bridged to async.
    ///
    /// The controller holds its delegate and presentation provider weakly, so this object holds the controller and
    /// is itself held by the caller for as long as `run()` awaits (a method's `self` lives through the call).
    @MainActor
    private final class PasskeyAuthorizationCeremony: NSObject, ASAuthorizationControllerDelegate,
        ASAuthorizationControllerPresentationContextProviding
    {
        private let controller: ASAuthorizationController
        private let anchor: @MainActor () -> ASPresentationAnchor
        private let completion = PasskeyCeremonyCompletion<PasskeyAuthorizationOutcome>()

        init(request: ASAuthorizationRequest, anchor: @escaping @MainActor () -> ASPresentationAnchor) {
            controller = ASAuthorizationController(authorizationRequests: [request])
            self.anchor = anchor
            super.init()
        }

        /// Performs the request and waits for the delegate's one answer.
        func run() async throws(PasskeyError) -> PasskeyAuthorizationOutcome {
            controller.delegate = self
            controller.presentationContextProvider = self
            return try await completion.wait { controller.performRequests() }
        }

        func authorizationController(
            controller: ASAuthorizationController, didCompleteWithAuthorization authorization: ASAuthorization
        ) {
            completion.finish(Result { () throws(PasskeyError) in try Self.outcome(of: authorization.credential) })
        }

        func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error) {
            let code = (error as? ASAuthorizationError)?.code.rawValue
            completion.finish(
                .failure(
                    PasskeyAuthorizationFailure.error(
                        authorizationErrorCode: code, description: error.localizedDescription, underlying: error)))
        }

        func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor {
            anchor()
        }

        private static func outcome(
            of credential: any ASAuthorizationCredential
        ) throws(PasskeyError) -> PasskeyAuthorizationOutcome {
            switch credential {
            case let registration as ASAuthorizationPlatformPublicKeyCredentialRegistration:
                return try .registration(
                    credentialID: registration.credentialID, rawClientDataJSON: registration.rawClientDataJSON,
                    rawAttestationObject: registration.rawAttestationObject)
            case let assertion as ASAuthorizationPlatformPublicKeyCredentialAssertion:
                return try .assertion(
                    credentialID: assertion.credentialID, rawClientDataJSON: assertion.rawClientDataJSON,
                    rawAuthenticatorData: assertion.rawAuthenticatorData, signature: assertion.signature,
                    userID: assertion.userID)
            default:
                throw PasskeyAuthorizationOutcome.unexpectedCredential(String(describing: type(of: credential)))
            }
        }
    }
#endif
