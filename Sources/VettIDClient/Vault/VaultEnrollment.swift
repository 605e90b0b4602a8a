// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation
public import Logging
import VettIDCore
import VettIDCrypto

/// Runs one vault enrollment: ``start(_:)`` → ``attest()`` (when required) → ``setPassword(_:)`` →
/// ``finalize()``, which stores the credential package atomically in the ``CredentialStore``. After a
/// `weak_password` refusal ``setPassword(_:)`` may be called again: the next attempt is sealed to another unused key
/// of the session (the server claimed the first).
///
/// The steps are separate so that a screen can ask for the password after the device has attested; ``run(invitation:password:)``
/// does all of them. Steps called out of order fail with `step_out_of_order` before anything is sent. The
/// password is sealed to the session's password key (purpose `enrollment-password`, context = session id, empty
/// AAD); only the envelope leaves the device.
public actor VaultEnrollment {
    /// Where an enrollment is.
    public enum Phase: Sendable, Equatable {
        /// ``start(_:)`` has not succeeded yet.
        case notStarted
        /// The session is open; the server expects an attestation.
        case awaitingAttestation
        /// The server expects the password.
        case awaitingPassword
        /// The password was accepted; finalize next.
        case awaitingFinalize
        /// The credential is stored.
        case completed
    }

    private let service: any VaultServiceProtocol
    private let deviceKeyStore: any DeviceKeyStore
    private let attester: any DeviceAttester
    private let credentialStore: CredentialStore
    private let trustedOrigin: URL?
    private let logger: Logger

    /// The open session, once ``start(_:)`` succeeded.
    public private(set) var session: EnrollmentSession?
    /// Where the enrollment is.
    public private(set) var phase: Phase = .notStarted
    private var attestationFormat: DeviceAttestationFormat?
    private var usedKeyIDs: Set<String> = []

    /// Creates a coordinator.
    /// - Parameters:
    ///   - service: The vault operations (``VaultService``).
    ///   - deviceKeyStore: The device key whose thumbprint the attestation binds.
    ///   - attester: Attests the device when the server requires it.
    ///   - credentialStore: Where ``finalize()`` stores the package.
    ///   - trustedOrigin: The API the service talks to; invitations for another origin are refused
    ///     (`untrusted_origin`). `nil` accepts any origin.
    ///   - logger: Where progress is logged (never secrets).
    public init(
        service: any VaultServiceProtocol,
        deviceKeyStore: any DeviceKeyStore,
        attester: any DeviceAttester,
        credentialStore: CredentialStore,
        trustedOrigin: URL?,
        logger: Logger
    ) {
        self.service = service
        self.deviceKeyStore = deviceKeyStore
        self.attester = attester
        self.credentialStore = credentialStore
        self.trustedOrigin = trustedOrigin
        self.logger = logger
    }

    /// Redeems the invitation and opens the session.
    /// - Throws: ``APIError``: `untrusted_origin`, `invitation_not_found`, `invitation_used`, `invitation_revoked`,
    ///   `invitation_expired`, `rate_limited`, `step_out_of_order` (already started), …
    @discardableResult
    public func start(_ invitation: EnrollmentInvitationLink) async throws(APIError) -> EnrollmentSession {
        guard phase == .notStarted else {
            throw APIError(code: .stepOutOfOrder, description: "This enrollment has already started; create a new one.")
        }
        if let trustedOrigin,
            DPoPNonceStore.origin(of: trustedOrigin) != DPoPNonceStore.origin(of: invitation.apiOrigin)
        {
            throw APIError(
                code: .untrustedOrigin,
                description: "The invitation is for \(invitation.apiOrigin.absoluteString), not this server.")
        }
        let session = try await service.enrollStart(invitationCode: invitation.code)
        self.session = session
        phase = session.attestationRequired ? .awaitingAttestation : .awaitingPassword
        logger.debug(
            "Vault enrollment started", metadata: ["vault.attestation_required": "\(session.attestationRequired)"])
        return session
    }

    /// Attests the device for the session's challenge, bound to the device key (`SHA-256(challenge ‖ jkt)`).
    /// Does nothing when the server does not require attestation.
    public func attest() async throws(APIError) {
        let session = try requireSession()
        if phase == .awaitingPassword, !session.attestationRequired { return }
        guard phase == .awaitingAttestation, let challenge = session.attestationChallenge else {
            throw APIError(code: .stepOutOfOrder, description: "The enrollment is not waiting for an attestation.")
        }
        let key: DeviceKey
        do throws(DeviceKeyError) { key = try await deviceKeyStore.deviceKey() } catch {
            throw APIError.deviceKey(error)
        }
        let attestation: DeviceKeyAttestation
        do throws(DeviceAttestationError) {
            attestation = try await attester.attestKey(challenge: challenge, deviceKeyThumbprint: key.thumbprintBytes)
        } catch { throw APIError.attestation(error) }
        let next = try await service.submitAttestation(attestation, session: session)
        attestationFormat = attestation.format
        phase = next == .finalize ? .awaitingFinalize : .awaitingPassword
        logger.debug("Vault enrollment attested", metadata: ["vault.format": "\(attestation.format)"])
    }

    /// Seals the password to the session's password key and sends it.
    /// - Throws: ``APIError``: `weak_password` (with `reasons` and `score`), `transaction_key_used`,
    ///   `session_expired`, `step_out_of_order`, …
    public func setPassword(_ password: String) async throws(APIError) {
        let session = try requireSession()
        guard phase == .awaitingPassword else {
            throw APIError(code: .stepOutOfOrder, description: "The enrollment is not waiting for a password.")
        }
        // The first attempt uses password_key_id; the server claims a key when it opens the envelope (before its
        // policy check), so after a refusal the next attempt goes to another unused key of the session.
        guard
            let key = ([session.passwordKey].compactMap { $0 } + session.transactionKeys).first(where: {
                !usedKeyIDs.contains($0.keyID)
            })
        else {
            throw APIError(
                code: .noTransactionKey, description: "The session has no unused transaction key left for the password."
            )
        }
        let envelope = try key.sealPassword(password, purpose: .enrollmentPassword, contextID: session.id)
        usedKeyIDs.insert(key.keyID)
        _ = try await service.setPassword(envelope, session: session)
        phase = .awaitingFinalize
    }

    /// Finalizes the session and stores the package (one atomic write, replacing any earlier credential).
    @discardableResult
    public func finalize() async throws(APIError) -> VaultCredential {
        let session = try requireSession()
        guard phase == .awaitingFinalize else {
            throw APIError(code: .stepOutOfOrder, description: "The enrollment is not ready to finalize.")
        }
        let (package, vaultSessionKeys) = try await service.finalizeWithVaultKeys(session: session)
        let credential = VaultCredential(
            package: package, attestationFormat: attestationFormat, vaultSessionKeys: vaultSessionKeys)
        try await credentialStore.save(credential)
        phase = .completed
        logger.info("Vault enrollment completed")
        return credential
    }

    /// Runs every step with `password`.
    public func run(invitation: EnrollmentInvitationLink, password: String) async throws(APIError) -> VaultCredential {
        try await start(invitation)
        try await attest()
        if phase == .awaitingPassword { try await setPassword(password) }
        return try await finalize()
    }

    private func requireSession() throws(APIError) -> EnrollmentSession {
        guard let session else {
            throw APIError(code: .stepOutOfOrder, description: "Start the enrollment with an invitation first.")
        }
        return session
    }
}
