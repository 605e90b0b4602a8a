// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// A request the secrets screen sends to the vault: what a ``SecretsFailure`` says failed, and what
/// ``SecretsStateMachine/retry()`` runs again.
public enum SecretsOperation: Sendable, Hashable {
    /// Read the list of names (`secret.list`).
    case load
    /// Read one value (`secret.get`).
    case reveal(name: String)
    /// Store a value (`secret.put`).
    case save(name: String)
    /// Delete a secret (`secret.delete`).
    case delete(name: String)
}
