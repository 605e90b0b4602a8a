// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// The member's secrets in the vault, for the app.

public import Foundation
public import VettIDCore
public import VettIDMessaging

/// The member's secrets, kept sealed in the vault (`vettid.vault.secrets`): every call goes over the sealed session
/// of the attached connection (``VaultHandlerLink``), which the SDK opens and renews by itself.
///
/// ```swift
/// try await vettid.vault.secrets.put(name: "bank-pin", string: "2468")
/// let names = try await vettid.vault.secrets.list().secrets.map(\.name)
/// let pin = try await vettid.vault.secrets.get(name: "bank-pin")          // after vettid.vault.authenticate(…)
/// try await vettid.vault.secrets.delete(name: "bank-pin")
/// ```
///
/// Reading a value needs a vault authentication of this device (``VaultService/authenticate(password:)``) within the
/// vault's window; without one ``get(name:)`` throws `vault_authentication_required`: authenticate, then read again.
/// Names and sizes are checked against `VaultDataLimits.standard` before anything is sent.
public struct VaultSecretsClient: Sendable {
    let link: VaultHandlerLink
    /// The limits checked before sending (the vault checks its own).
    public let limits: VaultDataLimits

    init(link: VaultHandlerLink, limits: VaultDataLimits = .standard) {
        self.link = link
        self.limits = limits
    }

    /// Stores `value` under `name`: version 1, or the next version of an existing name.
    /// - Parameters:
    ///   - name: The secret's name (1 to 128 bytes, no control characters, no white space at either end).
    ///   - value: The value (at most 16 KiB).
    ///   - expectedVersion: `0`: the name must be new; a version: the one to replace; `nil`: any.
    /// - Throws: `VaultMessageError` `invalid_secret_name`, `secret_too_large`, `secret_limit_reached`,
    ///   `version_conflict`, `vault_unavailable`.
    @discardableResult
    public func put(name: String, value: Data, expectedVersion: Int64? = nil) async throws(VaultMessageError)
        -> SecretSummary
    {
        try limits.checkSecretName(name)
        try limits.checkSecretValue(byteCount: value.count)
        return try await link.call(
            SecretPutOperation.self, .init(name: name, value: value, expectedVersion: expectedVersion))
    }

    /// Stores the UTF-8 bytes of `string` under `name` (see ``put(name:value:expectedVersion:)``).
    /// - Parameters:
    ///   - name: The secret's name.
    ///   - string: The value, stored as UTF-8.
    ///   - expectedVersion: `0`: the name must be new; a version: the one to replace; `nil`: any.
    @discardableResult
    public func put(name: String, string: String, expectedVersion: Int64? = nil) async throws(VaultMessageError)
        -> SecretSummary
    {
        try await put(name: name, value: Data(string.utf8), expectedVersion: expectedVersion)
    }

    /// The value stored under `name`.
    /// - Throws: `VaultMessageError` `vault_authentication_required` (authenticate this device, then read again),
    ///   `secret_not_found`, `invalid_secret_name`, `vault_unavailable`.
    public func get(name: String) async throws(VaultMessageError) -> SecretValue {
        try limits.checkSecretName(name)
        return try await link.call(SecretGetOperation.self, .init(name: name))
    }

    /// The names, versions and sizes of the member's secrets (no values; no vault authentication needed).
    /// - Throws: `VaultMessageError` `vault_unavailable`.
    public func list() async throws(VaultMessageError) -> SecretList {
        try await link.call(SecretListOperation.self, VaultEmptyPayload())
    }

    /// Deletes the secret `name`: its value is gone from the vault's store.
    /// - Parameters:
    ///   - name: The secret's name.
    ///   - expectedVersion: The version to delete; `nil`: whatever is stored.
    /// - Returns: the deleted secret.
    /// - Throws: `VaultMessageError` `secret_not_found`, `version_conflict`, `vault_unavailable`.
    @discardableResult
    public func delete(name: String, expectedVersion: Int64? = nil) async throws(VaultMessageError) -> SecretSummary {
        try limits.checkSecretName(name)
        return try await link.call(SecretDeleteOperation.self, .init(name: name, expectedVersion: expectedVersion))
    }
}
