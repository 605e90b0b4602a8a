// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import VettIDCore
public import VettIDCrypto
public import VettIDMessaging

/// The vault enrollment and authentication operations, one HTTP exchange each.
///
/// ``VaultService`` is the implementation; ``VaultEnrollment`` and ``VaultAuthenticator`` run the flows over any
/// conforming type (tests may pass a fake). Every method throws ``APIError``: server codes (`step_out_of_order`,
/// `session_expired`, `invitation_used`, `weak_password`, …) arrive as they are; the SDK adds client-side codes
/// (`network_error`, `invalid_response`, `device_key_failed`, …).
public protocol VaultServiceProtocol: Sendable {
    /// Redeems an invitation code and opens an enrollment session bound to the device key (`enrollStart`, with a
    /// DPoP proof).
    func enrollStart(invitationCode: String) async throws(APIError) -> EnrollmentSession

    /// Sends the device attestation for the session's challenge (`enrollAttestation`); returns the next step.
    func submitAttestation(_ attestation: DeviceKeyAttestation, session: EnrollmentSession) async throws(APIError)
        -> EnrollmentStep

    /// Sends the password sealed to the session's password key (`enrollPassword`); returns the next step.
    func setPassword(_ encryptedPassword: EncryptedPayload, session: EnrollmentSession) async throws(APIError)
        -> EnrollmentStep

    /// Seals the credential (`enrollFinalize`) and returns the package to store.
    func finalize(session: EnrollmentSession) async throws(APIError) -> CredentialPackage

    /// Seals the credential (`enrollFinalize`) and returns the package and the vault session keys to pin with it.
    /// The default calls ``finalize(session:)`` and pins no keys (the SDK then fetches them once over the API).
    func finalizeWithVaultKeys(session: EnrollmentSession) async throws(APIError)
        -> (package: CredentialPackage, vaultSessionKeys: PinnedVaultKeys?)

    /// Asks for a single-use `authenticate` action (`actionRequest`, with a DPoP proof by the enrolled key).
    func actionRequest(userGUID: String, credentialID: String, assertion: VaultActionAssertion?) async throws(APIError)
        -> VaultAction

    /// Authenticates with the sealed credential and the sealed password (`authExecute`, with the action token).
    func authExecute(action: VaultAction, credential: CredentialPackage, encryptedPassword: EncryptedPayload)
        async throws(APIError) -> VaultSession

    /// Reads the vault's status (`getVaultStatus`) with the vault session; re-authenticates once when needed.
    func getVaultStatus() async throws(APIError) -> VaultStatus

    /// Syncs the vault (`syncVault`) with the vault session and stores the replenished transaction keys.
    func syncVault() async throws(APIError) -> VaultSyncResult

    /// Allocates the member's NATS namespaces (`createNatsAccount`); 409 `account_exists` when they exist.
    func createNatsAccount() async throws(APIError) -> NatsAccount

    /// Issues a NATS token of `clientType` (`createNatsToken`); 404 `not_found` without an account, 503
    /// `nats_not_configured` without a nats-server.
    func createNatsToken(clientType: NatsClientType, deviceID: String?, mailboxKey: String?) async throws(APIError)
        -> NatsCredentials

    /// The member's NATS account and active tokens (`getNatsStatus`).
    func getNatsStatus() async throws(APIError) -> NatsStatus

    /// Revokes a NATS token (`revokeNatsToken`).
    func revokeNatsToken(id: String) async throws(APIError) -> NatsTokenRevocation
}

extension VaultServiceProtocol {
    /// Calls ``finalize(session:)``; no vault session keys.
    public func finalizeWithVaultKeys(session: EnrollmentSession) async throws(APIError)
        -> (package: CredentialPackage, vaultSessionKeys: PinnedVaultKeys?)
    {
        (try await finalize(session: session), nil)
    }
}
