// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation
public import VettIDClient
public import VettIDCore
public import VettIDMessaging

/// Where the secrets screen reads and writes the member's secrets: `vettid.vault.secrets` (`VaultSecretsClient`)
/// in an app, a fake in tests.
public protocol SecretsSource: Sendable {
    /// The names, versions and sizes of the member's secrets (no values; no vault authentication needed).
    func list() async throws(VaultMessageError) -> SecretList
    /// The value stored under `name`; `vault_authentication_required` when this device has not authenticated to
    /// the vault within the vault's window.
    func get(name: String) async throws(VaultMessageError) -> SecretValue
    /// Stores `value` under `name`; `expectedVersion` `0` for a name that must be new, else the version replaced.
    func put(name: String, value: Data, expectedVersion: Int64?) async throws(VaultMessageError) -> SecretSummary
    /// Deletes `name`; `expectedVersion` the version deleted (`nil`: whatever is stored).
    func delete(name: String, expectedVersion: Int64?) async throws(VaultMessageError) -> SecretSummary
}

extension VaultSecretsClient: SecretsSource {}
