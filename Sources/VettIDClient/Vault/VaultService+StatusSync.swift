// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Logging
import OpenAPIRuntime
import VettIDAPI
import VettIDCore

// Vault status and sync (and the NATS calls) over the member's session when the service has one
// (``VaultService/memberSession``: refreshed with the rotating refresh token; `sign_in_required` once it has
// ended), else over the vault session: `Authorization: DPoP <session token>` plus a proof with `ath`, bound to the
// device key, where a missing or expired session, and one 401 `invalid_token`, run the configured
// ``VaultReauthenticator`` once (single-flight); without one they throw `reauthentication_required`.
extension VaultService {
    /// Reads the vault's status (`GET /vault/status`) with the vault session, re-authenticating once when needed.
    /// - Throws: ``APIError``: `reauthentication_required`, `invalid_token` (refused again after re-authenticating),
    ///   `network_error`, `invalid_response` (including a status this SDK cannot decode), 5xx codes, ….
    public func getVaultStatus() async throws(APIError) -> VaultStatus {
        try await getVaultStatus(reauthenticate: true)
    }

    /// Reads the vault's status.
    /// - Parameter reauthenticate: `false` never runs the ``VaultReauthenticator``: a missing session or a 401 throws
    ///   `reauthentication_required` (the caller re-authenticates, e.g. `VaultStatusViewModel` in `VettIDViewModels`).
    public func getVaultStatus(reauthenticate: Bool) async throws(APIError) -> VaultStatus {
        let body = try await authorizedCall("getVaultStatus", reauthenticate: reauthenticate) { client in
            try await client.getVaultStatus(.init(headers: .init(dpop: ""))).ok.body.json
        }
        return VaultStatus(
            status: VaultStatusValue(rawValue: body.status.rawValue),
            userGUID: body.userGuid,
            enrolledAt: body.enrolledAt,
            lastAuthAt: body.lastAuthAt,
            lastSyncAt: body.lastSyncAt,
            deviceType: body.deviceType.map { VaultDeviceType(rawValue: $0.rawValue) },
            securityLevel: body.securityLevel?.rawValue,
            transactionKeysRemaining: body.transactionKeysRemaining,
            credentialVersion: body.credentialVersion,
            errorMessage: body.errorMessage
        )
    }

    /// Syncs the vault (`POST /vault/sync` with the stored credential's id) and adds the replenished transaction
    /// keys to the stored package (one atomic write, no duplicates), re-authenticating once when needed.
    /// - Throws: ``APIError``: `not_enrolled` (no stored credential, or 409), `reauthentication_required`,
    ///   `invalid_token`, `invalid_response` (a key that is not X25519), `storage_failed`, `network_error`, ….
    public func syncVault() async throws(APIError) -> VaultSyncResult {
        try await syncVault(reauthenticate: true)
    }

    /// Syncs the vault.
    /// - Parameter reauthenticate: `false` never runs the ``VaultReauthenticator`` (see
    ///   ``getVaultStatus(reauthenticate:)``).
    public func syncVault(reauthenticate: Bool) async throws(APIError) -> VaultSyncResult {
        let credential = try await credentialStore.require()
        let request = Components.Schemas.VaultSyncRequest(credentialId: credential.package.credentialID)
        let body = try await authorizedCall("syncVault", reauthenticate: reauthenticate) { client in
            try await client.syncVault(.init(headers: .init(dpop: ""), body: .json(request))).ok.body.json
        }
        var keys: [TransactionKey] = []
        for item in body.newTransactionKeys { keys.append(try Self.key(from: item)) }
        let stored = try await credentialStore.appendTransactionKeys(
            keys, credentialID: credential.package.credentialID)
        let result = VaultSyncResult(
            status: VaultSyncStatus(rawValue: body.status.rawValue),
            lastSyncAt: body.lastSyncAt,
            transactionKeysRemaining: body.transactionKeysRemaining,
            newTransactionKeys: keys,
            credentialVersion: body.credentialVersion,
            storedTransactionKeys: stored.package.transactionKeys.count
        )
        configuration.logger.debug(
            "Vault: synced",
            metadata: [
                "vault.sync_status": "\(result.status)", "vault.new_keys": "\(keys.count)",
                "vault.stored_keys": "\(result.storedTransactionKeys)",
            ]
        )
        return result
    }

    /// Runs the configured ``VaultReauthenticator`` (single-flight) and keeps the new session.
    /// - Throws: ``APIError`` `reauthentication_required` without a reauthenticator, or what it threw.
    @discardableResult
    public func reauthenticate() async throws(APIError) -> VaultSessionToken {
        try await refreshSession(after: await sessionStore.current()?.token, cause: nil)
    }

    /// Makes `session` the one status and sync use (for apps that authenticate through ``VaultAuthenticator``;
    /// ``authenticate(password:)`` does this itself).
    public func useSession(_ session: VaultSession) async throws(APIError) {
        try await sessionStore.save(session)
    }

    /// Forgets the vault session (memory and store), e.g. when the app locks.
    public func forgetSession() async {
        await sessionStore.remove()
    }

    // MARK: Session-authorized calls

    func authorizedCall<Output: Sendable>(
        _ operation: String,
        reauthenticate: Bool,
        vaultSessionOnly: Bool = false,
        _ body: @Sendable (Client) async throws -> Output
    ) async throws(APIError) -> Output {
        var reauthenticate = reauthenticate
        if let memberSession {
            guard vaultSessionOnly else { return try await memberCall(operation, on: memberSession, body) }
            // Beside a member session the vault session is used only while it lasts: renewing it asks for the
            // vault password, which the member session exists to avoid.
            reauthenticate = false
        }
        var token = await sessionStore.current()?.token
        var reauthenticated = false
        if token == nil {
            guard reauthenticate else {
                throw APIError(
                    code: .reauthenticationRequired,
                    description: "There is no unexpired vault session; authenticate with the vault password.")
            }
            token = try await refreshSession(after: nil, cause: nil).token
            reauthenticated = true
        }
        guard let current = token else {
            throw APIError(code: .reauthenticationRequired, description: "There is no vault session.")
        }
        do {
            return try await call(operation, token: current, body)
        } catch  where error.code == .invalidToken {
            await sessionStore.invalidate(current)
            guard !reauthenticated else { throw error }
            guard reauthenticate else {
                throw APIError(
                    code: .reauthenticationRequired,
                    status: error.status,
                    description: "The server refused the vault session; authenticate with the vault password.",
                    underlying: error
                )
            }
            configuration.logger.debug(
                "Vault: session refused, re-authenticating once", metadata: ["vault.operation": "\(operation)"])
            let fresh = try await refreshSession(after: current, cause: error)
            return try await call(operation, token: fresh.token, body)
        }
    }

    /// One call with the member's session (its chain adds the token and proof, and refreshes once on 401). A
    /// session that is gone, or that the server ended, is `APIError.signInRequired`.
    private func memberCall<Output: Sendable>(
        _ operation: String,
        on session: APIClient,
        _ body: @Sendable (Client) async throws -> Output
    ) async throws(APIError) -> Output {
        if await session.session.current == nil {
            // A background launch may come before the app restored its session.
            _ = try? await session.session.restore()
        }
        guard await session.session.current != nil else {
            throw APIError(code: .signInRequired, description: "No member is signed in on this device; sign in again.")
        }
        do {
            return try await session.perform(body)
        } catch  where Self.endsMemberSession(error) {
            configuration.logger.info(
                "Vault: the member session has ended",
                metadata: ["vault.operation": "\(operation)", "error.code": "\(error.code)"])
            throw APIError(
                code: .signInRequired,
                status: error.status,
                description: "The member session has ended (signed out, revoked, or expired); sign in again.",
                underlying: error
            )
        }
    }

    /// Whether a member-session call failed because the session is over: the refresh token was refused
    /// (`invalid_grant`), there was nothing to refresh with (`not_authenticated`), or the server still refused the
    /// token after the refresh (`invalid_token`).
    static func endsMemberSession(_ error: APIError) -> Bool {
        error.code == .invalidGrant || error.code == .notAuthenticated
            || (error.code == .invalidToken && error.status == 401)
    }

    private func refreshSession(after refused: String?, cause: APIError?) async throws(APIError) -> VaultSessionToken {
        guard let hook = configuration.reauthenticate else {
            throw APIError(
                code: .reauthenticationRequired,
                status: cause?.status,
                description:
                    "The vault session is missing, expired or was refused, and no re-authentication is configured.",
                underlying: cause
            )
        }
        return try await sessionStore.refresh(after: refused) { try await hook(self) }
    }
}
