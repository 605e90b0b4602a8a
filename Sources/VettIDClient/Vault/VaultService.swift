// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Logging
import OpenAPIRuntime
import VettIDAPI
import VettIDCore
public import VettIDCrypto

/// The vault client: enrollment (start → attestation → password → finalize) and authentication (action request →
/// LAT check → auth execute) against a VettID server, with the credential kept in a ``SecureStore``.
///
/// Every request carries a `DPoP` proof by the device key; the enrollment and action tokens go out as
/// `Authorization: DPoP <token>` with `ath`. Server nonces are remembered per origin and a `use_dpop_nonce` answer
/// is retried once. The protocol methods (``VaultServiceProtocol``) are single exchanges; ``enrollment()`` and
/// ``authenticator()`` run the flows, and ``enroll(invitation:password:)`` / ``authenticate(password:)`` run them in
/// one call.
///
/// ```swift
/// let store: any SecureStore = KeychainSecureStore(service: "com.example.app")
/// let vault = try VaultService(
///     configuration: .init(baseURL: URL(string: "https://api.example.com")!),
///     deviceKeyStore: SoftwareDeviceKeyStore(store: store),
///     attester: AppAttestAttester(service: DeviceCheckAppAttestService(), store: store),
///     store: store
/// )
/// let link = try EnrollmentInvitationLink(parsing: scannedText)
/// let credential = try await vault.enroll(invitation: link, password: password)
/// let session = try await vault.authenticate(password: password)
/// ```
public final class VaultService: VaultServiceProtocol {
    /// The validated configuration.
    public let configuration: VaultServiceConfiguration
    /// The device key that signs every proof.
    public let deviceKeyStore: any DeviceKeyStore
    /// The attester used at enrollment and for action assertions.
    public let attester: any DeviceAttester
    /// Where the credential package lives.
    public let credentialStore: CredentialStore
    /// The per-origin `DPoP-Nonce` memory.
    public let nonceStore: DPoPNonceStore
    /// The device's mailbox key, in the same store (docs/protocol.md 7.5).
    public let mailboxKeys: MailboxKeyStore
    /// The latest vault session token: what status, sync and the NATS calls use when there is no
    /// ``memberSession``.
    public let sessionStore: VaultSessionStore
    /// The member's session (an ``AuthManager``'s ``AuthManager/apiClient``): when set, status, sync and the NATS
    /// calls go out with it, as the member's own requests (`Authorization: DPoP <member token>` + proof),
    /// refreshed with the rotating refresh token, so they work in the background for as long as the member
    /// stays signed in; the vault password is then needed only to authenticate to the vault.
    public let memberSession: APIClient?
    /// The connection ``secrets`` and ``profile`` run their handlers over (`vettid.natsManager()` attaches its
    /// manager).
    public let handlerLink = VaultHandlerLink()
    let proofProvider: DeviceDPoPProofProvider

    /// Creates a service. Nothing is sent or read until the first call.
    /// - Parameters:
    ///   - configuration: The server and device settings.
    ///   - deviceKeyStore: The device key (``SoftwareDeviceKeyStore`` or `SecureEnclaveDeviceKeyStore`).
    ///   - attester: ``AppAttestAttester``, `SoftwareDeviceAttester` (VettIDSoftwareAttestation) or ``DevelopmentTokenAttester``.
    ///   - store: Where the credential package is kept (key ``VaultServiceConfiguration/credentialStorageKey``).
    ///   - memberSession: The member's session for status, sync and NATS (see ``memberSession``); `nil` uses
    ///     the vault session.
    ///   - nonceStore: The per-origin nonces: pass the store the ``AuthManager`` of the same server uses, so a
    ///     nonce either received goes into the other's next proof.
    public init(
        configuration: VaultServiceConfiguration,
        deviceKeyStore: any DeviceKeyStore,
        attester: any DeviceAttester,
        store: any SecureStore,
        memberSession: APIClient? = nil,
        nonceStore: DPoPNonceStore = DPoPNonceStore()
    ) {
        self.configuration = configuration
        self.memberSession = memberSession
        self.deviceKeyStore = deviceKeyStore
        self.attester = attester
        self.credentialStore = CredentialStore(
            store: store, storageKey: configuration.credentialStorageKey, clock: configuration.clock)
        self.sessionStore = VaultSessionStore(
            store: store, storageKey: configuration.sessionStorageKey, clock: configuration.clock)
        self.nonceStore = nonceStore
        self.mailboxKeys = MailboxKeyStore(store: store)
        self.proofProvider = DeviceDPoPProofProvider(
            keyStore: deviceKeyStore, nonceStore: nonceStore, clock: configuration.clock)
    }

    // MARK: Flows

    /// A new enrollment coordinator over this service (one per enrollment attempt).
    public func enrollment() -> VaultEnrollment {
        VaultEnrollment(
            service: self,
            deviceKeyStore: deviceKeyStore,
            attester: attester,
            credentialStore: credentialStore,
            trustedOrigin: configuration.baseURL,
            logger: configuration.logger
        )
    }

    /// An authentication coordinator over this service.
    public func authenticator() -> VaultAuthenticator {
        VaultAuthenticator(
            service: self,
            deviceKeyStore: deviceKeyStore,
            attester: attester,
            credentialStore: credentialStore,
            logger: configuration.logger,
            clock: configuration.clock
        )
    }

    /// Enrolls in one call: start, attestation when required, password, finalize; the package is stored.
    /// - Throws: ``APIError`` (see ``VaultEnrollment``).
    public func enroll(invitation: EnrollmentInvitationLink, password: String) async throws(APIError) -> VaultCredential
    {
        try await enrollment().run(invitation: invitation, password: password)
    }

    /// Authenticates with the stored credential; the rotated package replaces the stored one and the session
    /// token is kept in ``sessionStore`` for ``getVaultStatus()`` and ``syncVault()``.
    /// - Throws: ``APIError`` (`not_enrolled`, `lat_mismatch`, `invalid_credentials`, `credential_locked`, …).
    public func authenticate(password: String) async throws(APIError) -> VaultSession {
        let session = try await authenticator().authenticate(password: password)
        do {
            try await sessionStore.save(session)
        } catch {
            configuration.logger.warning("Vault: the session could not be stored; it stays usable in this process")
        }
        return session
    }

    /// The stored credential, or `nil` before enrollment.
    public func storedCredential() async throws(APIError) -> VaultCredential? {
        try await credentialStore.load()
    }

    // MARK: VaultServiceProtocol

    /// Redeems an invitation code (normalised to `XXXX-XXXX`) and opens an enrollment session.
    public func enrollStart(invitationCode: String) async throws(APIError) -> EnrollmentSession {
        let code: String
        do throws(InvitationLinkError) {
            code = try EnrollmentInvitationLink.normalizedCode(invitationCode)
        } catch {
            throw APIError(code: .invalidRequest, description: error.message, underlying: error)
        }
        guard let deviceType = Components.Schemas.DeviceType(rawValue: configuration.deviceType.rawValue) else {
            throw APIError(code: .invalidRequest, description: "Unknown device type '\(configuration.deviceType)'.")
        }
        let request = Components.Schemas.EnrollStartRequest(
            invitationCode: code, deviceType: deviceType, deviceId: configuration.deviceID)
        let body: Components.Schemas.EnrollStartResponse = try await call("enrollStart", token: nil) { client in
            try await client.enrollStart(.init(headers: .init(dpop: ""), body: .json(request))).created.body.json
        }
        let session = try Self.session(from: body)
        configuration.logger.debug(
            "Vault: enrollment session opened", metadata: ["vault.next_step": "\(session.nextStep)"])
        return session
    }

    /// Sends the attestation (`format`, `key_id`, `attestation_object` in standard base64, `development_token`).
    public func submitAttestation(_ attestation: DeviceKeyAttestation, session: EnrollmentSession)
        async throws(APIError) -> EnrollmentStep
    {
        guard let format = Components.Schemas.AttestationFormat(rawValue: attestation.format.rawValue) else {
            throw APIError(
                code: .invalidRequest,
                description: "The server does not know the attestation format '\(attestation.format)'.")
        }
        let request = Components.Schemas.EnrollAttestationRequest(
            enrollmentSessionId: session.id,
            format: format,
            keyId: attestation.keyID,
            attestationObject: attestation.attestationObject?.base64EncodedString(),
            developmentToken: attestation.developmentToken
        )
        let body = try await call("enrollAttestation", token: session.token) { client in
            try await client.enrollAttestation(.init(headers: .init(dpop: ""), body: .json(request))).ok.body.json
        }
        return EnrollmentStep(rawValue: body.nextStep.rawValue)
    }

    /// Sends the sealed password.
    public func setPassword(_ encryptedPassword: EncryptedPayload, session: EnrollmentSession) async throws(APIError)
        -> EnrollmentStep
    {
        let request = Components.Schemas.EnrollPasswordRequest(
            enrollmentSessionId: session.id,
            encryptedPassword: Self.wire(encryptedPassword)
        )
        let body = try await call("enrollPassword", token: session.token) { client in
            try await client.enrollPassword(.init(headers: .init(dpop: ""), body: .json(request))).ok.body.json
        }
        return EnrollmentStep(rawValue: body.nextStep.rawValue)
    }

    /// Finalizes the session and returns the (validated) package; it does not store it.
    public func finalize(session: EnrollmentSession) async throws(APIError) -> CredentialPackage {
        try await finalizeWithVaultKeys(session: session).package
    }

    /// Finalizes the session and returns the (validated) package and the vault session keys to pin; it stores
    /// neither.
    /// - Throws: ``APIError``; `invalid_response` for a package of another member or a key set that does not parse
    ///   strictly (``PinnedVaultKeyError`` as the underlying error).
    public func finalizeWithVaultKeys(session: EnrollmentSession) async throws(APIError)
        -> (package: CredentialPackage, vaultSessionKeys: PinnedVaultKeys?)
    {
        let request = Components.Schemas.EnrollFinalizeRequest(enrollmentSessionId: session.id)
        let body = try await call("enrollFinalize", token: session.token) { client in
            try await client.enrollFinalize(.init(headers: .init(dpop: ""), body: .json(request))).ok.body.json
        }
        let package = try Self.package(from: body.credentialPackage)
        guard package.userGUID == session.userGUID else {
            throw APIError(
                code: .invalidResponse,
                description: "The credential package belongs to another member than the session.")
        }
        return (package, try Self.pinnedVaultKeys(from: body.vaultSessionKeys))
    }

    /// Asks for an `authenticate` action.
    public func actionRequest(userGUID: String, credentialID: String, assertion: VaultActionAssertion?)
        async throws(APIError) -> VaultAction
    {
        let request = Components.Schemas.ActionRequest(
            userGuid: userGUID,
            credentialId: credentialID,
            action: .authenticate,
            assertion: assertion?.assertion.base64EncodedString(),
            clientData: assertion.map { Base64URL.encode($0.clientData) }
        )
        let body = try await call("actionRequest", token: nil) { client in
            try await client.actionRequest(.init(headers: .init(dpop: ""), body: .json(request))).ok.body.json
        }
        return try action(from: body)
    }

    /// Sends the sealed credential and the sealed password with the action token.
    public func authExecute(action: VaultAction, credential: CredentialPackage, encryptedPassword: EncryptedPayload)
        async throws(APIError) -> VaultSession
    {
        let request = Components.Schemas.AuthExecuteRequest(
            actionId: action.id,
            credentialId: credential.credentialID,
            sealedCredential: credential.sealedCredential,
            keyVersion: credential.keyVersion,
            encryptedPassword: Self.wire(encryptedPassword)
        )
        let body = try await call("authExecute", token: action.token) { client in
            try await client.authExecute(.init(headers: .init(dpop: ""), body: .json(request))).ok.body.json
        }
        try Self.requireDPoP(body.tokenType, what: "vault session token")
        guard !body.sessionToken.isEmpty, body.expiresIn > 0 else {
            throw APIError(
                code: .invalidResponse, description: "The server issued an empty or expired vault session token.")
        }
        let package = try Self.package(from: body.credentialPackage)
        guard package.userGUID == credential.userGUID else {
            throw APIError(code: .invalidResponse, description: "The new credential package belongs to another member.")
        }
        return VaultSession(
            token: body.sessionToken,
            expiresAt: configuration.clock.now().addingTimeInterval(TimeInterval(body.expiresIn)),
            credential: package
        )
    }

    // MARK: Transport

    /// Runs one generated-client call through: `Authorization` (when a token is given) → proof (with `ath`) →
    /// error mapping → nonce memory and retry → logging → transport. Any failure becomes an ``APIError``.
    func call<Output: Sendable>(
        _ operation: String,
        token: String?,
        _ body: @Sendable (Client) async throws -> Output
    ) async throws(APIError) -> Output {
        var middlewares: [any ClientMiddleware] = []
        if let token { middlewares.append(VaultAuthorizationMiddleware(token: token)) }
        middlewares += [
            DPoPProofMiddleware(proofProvider: proofProvider),
            ErrorMappingMiddleware(),
            DPoPNonceMiddleware(proofProvider: proofProvider),
            LoggingMiddleware(logger: configuration.logger),
        ]
        let client = Client(
            serverURL: configuration.baseURL, transport: configuration.transport, middlewares: middlewares)
        do {
            return try await body(client)
        } catch {
            let apiError = APIError.from(error)
            // A proof that could not be signed means the device key is unavailable.
            if apiError.code == .invalidDPoPProof, apiError.status == nil,
                let keyError = apiError.underlying as? DeviceKeyError
            {
                throw APIError.deviceKey(keyError)
            }
            configuration.logger.debug("Vault: \(operation) failed", metadata: ["error.code": "\(apiError.code)"])
            throw apiError
        }
    }
}
