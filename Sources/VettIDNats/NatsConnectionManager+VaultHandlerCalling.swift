// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// The manager as what runs the vault's data handlers (`vettid.vault.secrets`, `vettid.vault.profile`).

public import VettIDCore
public import VettIDCrypto
public import VettIDMessaging

extension NatsConnectionManager: VaultHandlerCalling {
    /// Runs `handler` through ``ownerSpace()`` (sealed when the manager has a ``sealedSession``).
    /// - Throws: `VaultMessageError`: the vault's refusal as it sent it, or `vault_unavailable` carrying the
    ///   ``NatsConnectionError`` (not connected, timed out, no vault listening, a session failure) as `underlying`.
    public nonisolated func execute(_ handler: VaultHandlerID, payload: JSONValue) async throws(VaultMessageError)
        -> JSONValue
    {
        do {
            return try await ownerSpace().executeHandler(handler, payload: payload)
        } catch {
            if let refusal = error.vaultError { throw refusal }
            throw VaultMessageError(.unavailable, "The vault could not be reached: \(error.message)", underlying: error)
        }
    }
}
