// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
public import VettIDCore

/// Keeps the device's ``VaultCredential`` in a ``SecureStore`` as **one** item, so a reader sees either the old or
/// the new package, never a mix (the store's writes are atomic).
///
/// Every change is a read-modify-write serialised by the actor: ``save(_:)`` and ``replacePackage(_:)`` write the
/// whole credential; ``consumeTransactionKey(id:)`` removes one key before the password sealed to it is sent, so a
/// key is never used twice even if the request fails afterwards. Use one `CredentialStore` per storage key.
public actor CredentialStore {
    /// The store key of the credential item.
    public nonisolated let storageKey: String
    private let store: any SecureStore
    private let clock: any WallClock
    // The read-modify-write methods hold this across their awaits (actor reentrancy would otherwise interleave them).
    private var writing = false
    private var writers: [CheckedContinuation<Void, Never>] = []

    /// Creates a credential store.
    /// - Parameters:
    ///   - store: Where the item lives (`KeychainSecureStore`, ``EncryptedFileSecureStore``, …).
    ///   - storageKey: The item's key.
    ///   - clock: The clock for ``VaultCredential/updatedAt``.
    public init(
        store: any SecureStore, storageKey: String = "vettid.vault.credential",
        clock: any WallClock = SystemWallClock()
    ) {
        self.store = store
        self.storageKey = storageKey
        self.clock = clock
    }

    /// The stored credential, or `nil` when the device has not enrolled.
    /// - Throws: ``APIError`` `storage_failed` when the store cannot be read or the item is not a credential.
    public func load() async throws(APIError) -> VaultCredential? {
        let data: Data?
        do {
            data = try await store.data(forKey: storageKey)
        } catch {
            throw APIError(
                code: .storageFailed, description: "The vault credential could not be read.", underlying: error)
        }
        guard let data else { return nil }
        do {
            return try JSONDecoder().decode(VaultCredential.self, from: data)
        } catch {
            throw APIError(
                code: .storageFailed, description: "The stored vault credential is unreadable.", underlying: error)
        }
    }

    /// The stored credential.
    /// - Throws: ``APIError`` `not_enrolled` when there is none.
    public func require() async throws(APIError) -> VaultCredential {
        guard let credential = try await load() else {
            throw APIError(code: .notEnrolled, description: "This device has no vault credential; enroll first.")
        }
        return credential
    }

    /// Writes `credential` as one item, replacing any previous one.
    public func save(_ credential: VaultCredential) async throws(APIError) {
        let data: Data
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            data = try encoder.encode(credential)
        } catch {
            throw APIError(
                code: .storageFailed, description: "The vault credential could not be encoded.", underlying: error)
        }
        do {
            try await store.set(data, forKey: storageKey)
        } catch {
            throw APIError(
                code: .storageFailed, description: "The vault credential could not be written.", underlying: error)
        }
    }

    /// Replaces the stored package with `package` in one write, keeping the attestation format.
    /// - Throws: ``APIError`` `not_enrolled` without a stored credential; `invalid_response` when `package` belongs
    ///   to another member (the stored one is kept).
    @discardableResult
    public func replacePackage(_ package: CredentialPackage) async throws(APIError) -> VaultCredential {
        await beginWrite()
        defer { endWrite() }
        var credential = try await require()
        guard credential.package.userGUID == package.userGUID else {
            throw APIError(
                code: .invalidResponse, description: "The server returned a credential package for another member.")
        }
        credential.package = package
        credential.updatedAt = clock.now()
        try await save(credential)
        return credential
    }

    /// Replaces the stored vault session keys with `keys` in one write, keeping everything else.
    /// - Throws: ``APIError`` `not_enrolled` without a stored credential, `storage_failed`.
    @discardableResult
    public func replaceVaultSessionKeys(_ keys: PinnedVaultKeys) async throws(APIError) -> VaultCredential {
        await beginWrite()
        defer { endWrite() }
        var credential = try await require()
        guard credential.vaultSessionKeys != keys else { return credential }
        credential.vaultSessionKeys = keys
        try await save(credential)
        return credential
    }

    /// Removes the unused transaction key `id` from the stored package (one write) and returns it.
    /// - Throws: ``APIError`` `not_enrolled`, or `no_transaction_key` when the package does not hold that key.
    public func consumeTransactionKey(id: String) async throws(APIError) -> TransactionKey {
        await beginWrite()
        defer { endWrite() }
        var credential = try await require()
        guard let index = credential.package.transactionKeys.firstIndex(where: { $0.keyID == id }) else {
            throw APIError(
                code: .noTransactionKey, description: "The stored credential holds no unused transaction key '\(id)'.")
        }
        let key = credential.package.transactionKeys.remove(at: index)
        credential.updatedAt = clock.now()
        try await save(credential)
        return key
    }

    /// Adds transaction keys from a vault sync to the stored package (one write); keys it already holds are skipped.
    /// Serialised with ``consumeTransactionKey(id:)`` and ``replacePackage(_:)``, so concurrent syncs and
    /// authentications neither lose nor duplicate keys.
    /// - Parameters:
    ///   - keys: The new keys.
    ///   - credentialID: The credential the keys were issued for; `nil` accepts any.
    /// - Returns: The stored credential after the write (unchanged, and not rewritten, when nothing was new).
    /// - Throws: ``APIError`` `not_enrolled`; `invalid_response` when the stored credential is another one now.
    @discardableResult
    public func appendTransactionKeys(_ keys: [TransactionKey], credentialID: String? = nil) async throws(APIError)
        -> VaultCredential
    {
        await beginWrite()
        defer { endWrite() }
        var credential = try await require()
        if let credentialID, credential.package.credentialID != credentialID {
            throw APIError(
                code: .invalidResponse,
                description: "The synced transaction keys belong to another credential than the stored one.")
        }
        var known = Set(credential.package.transactionKeys.map(\.keyID))
        var added = false
        for key in keys where known.insert(key.keyID).inserted {
            credential.package.transactionKeys.append(key)
            added = true
        }
        guard added else { return credential }
        credential.updatedAt = clock.now()
        try await save(credential)
        return credential
    }

    private func beginWrite() async {
        guard writing else {
            writing = true
            return
        }
        await withCheckedContinuation { writers.append($0) }
    }

    private func endWrite() {
        if writers.isEmpty {
            writing = false
        } else {
            writers.removeFirst().resume()
        }
    }

    private var pendingKey: String { storageKey + ".pending-execute" }

    /// Keeps an auth execute that is about to be sent, until its answer is stored (see ``PendingVaultExecution``).
    public func savePendingExecution(_ pending: PendingVaultExecution) async throws(APIError) {
        do {
            try await store.set(try JSONEncoder().encode(pending), forKey: pendingKey)
        } catch {
            throw APIError(
                code: .storageFailed, description: "The pending vault authentication could not be written.",
                underlying: error)
        }
    }

    /// The auth execute whose answer was lost, if any (an unreadable record counts as none).
    public func pendingExecution() async -> PendingVaultExecution? {
        guard let data = try? await store.data(forKey: pendingKey) else { return nil }
        return try? JSONDecoder().decode(PendingVaultExecution.self, from: data)
    }

    /// Forgets the pending auth execute.
    public func clearPendingExecution() async {
        try? await store.removeValue(forKey: pendingKey)
    }

    /// Deletes the stored credential (no error when there is none).
    public func remove() async throws(APIError) {
        do {
            try await store.removeValue(forKey: storageKey)
        } catch {
            throw APIError(
                code: .storageFailed, description: "The vault credential could not be removed.", underlying: error)
        }
    }
}
