// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
public import Logging
public import VettIDCore
import VettIDCrypto

/// Authenticates to the vault with the stored credential.
///
/// 1. ``requestAction()``: `actionRequest` with a DPoP proof by the enrolled key, plus an App Attest assertion when
///    the device attested a key at enrollment (`apple-appattest` or `software`; see ``VaultActionAssertion``);
/// 2. the LAT the server returns is compared with the stored one (id, token, version). **On any difference it
///    throws `lat_mismatch` and sends nothing more**: the password is never sealed for a server that cannot
///    produce the LAT;
/// 3. ``execute(_:password:)``: the transaction key named by `use_key_id` is taken from the stored package (and
///    removed from it before sending: keys are single use), the password is sealed to it (purpose
///    `authentication-password`, context = action id, empty AAD), and `authExecute` sends it with the sealed
///    credential and `Authorization: DPoP <action_token>`;
/// 4. the rotated package replaces the stored one in one write.
public struct VaultAuthenticator: Sendable {
    let service: any VaultServiceProtocol
    let deviceKeyStore: any DeviceKeyStore
    let attester: any DeviceAttester
    let credentialStore: CredentialStore
    let logger: Logger
    let clock: any WallClock

    /// Creates an authenticator.
    public init(
        service: any VaultServiceProtocol,
        deviceKeyStore: any DeviceKeyStore,
        attester: any DeviceAttester,
        credentialStore: CredentialStore,
        logger: Logger,
        clock: any WallClock = SystemWallClock()
    ) {
        self.service = service
        self.deviceKeyStore = deviceKeyStore
        self.attester = attester
        self.credentialStore = credentialStore
        self.logger = logger
        self.clock = clock
    }

    /// Runs the whole authentication.
    /// - Throws: ``APIError``: `not_enrolled`, `no_transaction_key`, `lat_mismatch`, `invalid_credentials` (wrong
    ///   password), `credential_locked`, `stale_credential`, `action_replayed`, `session_expired`, …
    public func authenticate(password: String) async throws(APIError) -> VaultSession {
        try await recoverPendingExecution()
        let action = try await requestAction()
        return try await execute(action, password: password)
    }

    /// Asks for an action and checks its LAT against the stored one.
    /// - Throws: ``APIError`` `lat_mismatch` when the server's LAT differs (nothing else is sent);
    ///   `no_transaction_key` when the stored package has no unused key (nothing is sent at all).
    public func requestAction() async throws(APIError) -> VaultAction {
        let credential = try await credentialStore.require()
        guard !credential.package.transactionKeys.isEmpty else {
            throw APIError(
                code: .noTransactionKey, description: "The stored credential has no unused transaction key left.")
        }
        var assertion: VaultActionAssertion?
        if credential.hasAttestedKey {
            assertion = try await makeAssertion(credentialID: credential.package.credentialID)
        }
        let action = try await service.actionRequest(
            userGUID: credential.package.userGUID,
            credentialID: credential.package.credentialID,
            assertion: assertion
        )
        guard action.ledgerAuthToken.matches(credential.package.ledgerAuthToken) else {
            logger.warning("Vault: the server's LAT does not match the stored one; the password was not sent")
            throw APIError(
                code: .latMismatch,
                description:
                    "The server could not prove it is the one this device enrolled with; the password was not sent."
            )
        }
        return action
    }

    /// Sends the password for an action whose LAT was checked by ``requestAction()``; stores the new package.
    public func execute(_ action: VaultAction, password: String) async throws(APIError) -> VaultSession {
        let credential = try await credentialStore.require()
        // Re-check: an action from elsewhere must not bypass the LAT comparison.
        guard action.ledgerAuthToken.matches(credential.package.ledgerAuthToken) else {
            throw APIError(
                code: .latMismatch,
                description: "The action's LAT does not match the stored one; the password was not sent.")
        }
        guard let stored = credential.package.transactionKey(id: action.useKeyID) else {
            throw APIError(
                code: .noTransactionKey,
                description: "The stored credential holds no unused transaction key '\(action.useKeyID)'.")
        }
        guard stored.publicKey == action.transactionKey.publicKey else {
            throw APIError(
                code: .invalidResponse,
                description: "The server's transaction key differs from the stored one; the password was not sent.")
        }
        let envelope = try stored.sealPassword(password, purpose: .authenticationPassword, contextID: action.id)
        let key = try await credentialStore.consumeTransactionKey(id: action.useKeyID)
        var sent = credential.package
        sent.transactionKeys.removeAll { $0.keyID == key.keyID }
        try await credentialStore.savePendingExecution(
            PendingVaultExecution(action: action, package: sent, envelope: envelope))
        let session = try await send(action: action, package: sent, envelope: envelope)
        logger.debug("Vault: authenticated", metadata: ["vault.key_version": "\(session.credential.keyVersion)"])
        return session
    }

    /// Sends an auth execute and stores its package. A network failure keeps the pending record (the next
    /// ``authenticate(password:)`` repeats it); any answer from the server clears it.
    private func send(action: VaultAction, package: CredentialPackage, envelope: EncryptedPayload)
        async throws(APIError)
        -> VaultSession
    {
        let session: VaultSession
        do {
            session = try await service.authExecute(action: action, credential: package, encryptedPassword: envelope)
        } catch {
            if error.code != .networkError { await credentialStore.clearPendingExecution() }
            throw error
        }
        try await credentialStore.replacePackage(session.credential)
        await credentialStore.clearPendingExecution()
        return session
    }

    /// Repeats an auth execute whose answer was lost, to recover the package the server rotated to. The current
    /// authentication still runs afterwards with the password just typed, so a recovered session never stands in
    /// for a password check.
    private func recoverPendingExecution() async throws(APIError) {
        guard let pending = await credentialStore.pendingExecution() else { return }
        guard pending.actionExpiresAt > clock.now() else {
            logger.warning(
                "Vault: a lost authentication answer could not be recovered in time; re-enroll if the LAT no longer matches"
            )
            await credentialStore.clearPendingExecution()
            return
        }
        do throws(APIError) {
            _ = try await send(action: pending.action, package: pending.package, envelope: pending.envelope)
            logger.info("Vault: recovered the credential package of an authentication whose answer was lost")
        } catch  where error.code == .networkError {
            throw error
        } catch {
            logger.debug("Vault: the lost authentication was not repeatable", metadata: ["error.code": "\(error.code)"])
        }
    }

    /// The client data an attested device signs for an action request: the UTF-8 JSON
    /// `{"action","credential_id","iat","nonce"}` (sorted keys; `nonce` 32 random bytes in base64url).
    static func actionClientData(credentialID: String, now: Date) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        let nonce = Base64URL.encode((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
        let object = ActionClientData(
            action: "authenticate", credentialID: credentialID, iat: Int64(now.timeIntervalSince1970), nonce: nonce)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array((try? encoder.encode(object)) ?? Data())
    }

    private func makeAssertion(credentialID: String) async throws(APIError) -> VaultActionAssertion {
        let key: DeviceKey
        do throws(DeviceKeyError) { key = try await deviceKeyStore.deviceKey() } catch {
            throw APIError.deviceKey(error)
        }
        let clientData = Self.actionClientData(credentialID: credentialID, now: clock.now())
        let assertion: DeviceKeyAssertion
        do throws(DeviceAttestationError) {
            // clientDataHash = SHA-256(client_data ‖ jkt_bytes), the SDK's binding for every App Attest object.
            assertion = try await attester.generateAssertion(
                challenge: clientData, deviceKeyThumbprint: key.thumbprintBytes)
        } catch { throw APIError.attestation(error) }
        guard let signed = assertion.assertion else {
            throw APIError(code: .attestationFailed, description: "The attester produced no assertion.")
        }
        return VaultActionAssertion(assertion: signed, clientData: clientData)
    }
}

/// The JSON an attested device signs for an action request.
struct ActionClientData: Codable {
    var action: String
    var credentialID: String
    var iat: Int64
    var nonce: String

    enum CodingKeys: String, CodingKey {
        case action
        case credentialID = "credential_id"
        case iat
        case nonce
    }
}
