// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import VettIDAPI
import VettIDCore

// The vault identity keys pinned for sealed sessions: read from the stored credential, refreshed over the API.

extension VaultService {
    /// The vault session keys pinned with the stored credential; for a credential stored without them (an older
    /// SDK), fetches them once over the API and stores them (``refreshPinnedVaultKeys()``).
    /// - Throws: ``APIError`` `not_enrolled`, and the errors of ``refreshPinnedVaultKeys()``.
    public func pinnedVaultKeys() async throws(APIError) -> PinnedVaultKeys {
        let credential = try await credentialStore.require()
        if let keys = credential.vaultSessionKeys { return keys }
        return try await refreshPinnedVaultKeys()
    }

    /// Fetches the vault session keys (`GET /vault/session-keys`, DPoP-bound like ``getVaultStatus()``, with the
    /// same re-authentication) and stores them with the credential (one write).
    /// - Throws: ``APIError``: `not_enrolled`, `reauthentication_required`, `invalid_token`, `network_error`,
    ///   `invalid_response` (a key set that does not parse strictly: ``PinnedVaultKeyError`` as the underlying
    ///   error), `storage_failed`, ….
    @discardableResult
    public func refreshPinnedVaultKeys() async throws(APIError) -> PinnedVaultKeys {
        _ = try await credentialStore.require()
        let body = try await authorizedCall("vaultSessionKeys", reauthenticate: true) { client in
            try await client.vaultSessionKeys(.init(headers: .init(dpop: ""))).ok.body.json
        }
        let keys = try Self.pinnedVaultKeys(from: body)
        try await credentialStore.replaceVaultSessionKeys(keys)
        return keys
    }

    /// Parses the API's key set strictly.
    /// - Throws: ``APIError`` `invalid_response` with the ``PinnedVaultKeyError`` as underlying error.
    static func pinnedVaultKeys(from wire: Components.Schemas.VaultSessionKeySet) throws(APIError) -> PinnedVaultKeys {
        do throws(PinnedVaultKeyError) {
            var keys: [PinnedVaultKeys.Key] = []
            for key in wire.keys {
                keys.append(
                    try PinnedVaultKeys.Key(
                        kid: key.kid, kty: key.kty.rawValue, crv: key.crv.rawValue, alg: key.alg.rawValue, x: key.x,
                        y: key.y))
            }
            return try PinnedVaultKeys(keys: keys, currentKID: wire.currentKid)
        } catch {
            throw APIError(
                code: .invalidResponse, description: "The vault session keys are not valid: \(error.message)",
                underlying: error)
        }
    }
}
