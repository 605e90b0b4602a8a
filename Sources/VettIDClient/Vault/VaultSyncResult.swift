// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation

/// What a `POST /vault/sync` did (an open set).
public struct VaultSyncStatus: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    /// The wire value.
    public let rawValue: String
    /// Creates a value from its wire form.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Creates a value from a string literal.
    public init(stringLiteral value: String) { self.rawValue = value }
    /// The wire value.
    public var description: String { rawValue }

    /// `synced`: the pool had enough keys (10 or more unused); no new keys.
    public static let synced = VaultSyncStatus(rawValue: "synced")
    /// `keys_replenished`: the pool was below 10 and was refilled to 20; the new keys are in
    /// ``VaultSyncResult/newTransactionKeys``.
    public static let keysReplenished = VaultSyncStatus(rawValue: "keys_replenished")
}

/// The outcome of ``VaultService/syncVault()``: the server's answer, and how many unused keys the device now holds
/// after the new ones were added to the stored credential.
public struct VaultSyncResult: Sendable, Hashable, CustomStringConvertible {
    /// `synced` or `keys_replenished`.
    public var status: VaultSyncStatus
    /// When the server recorded the sync.
    public var lastSyncAt: Date
    /// Unused keys the server holds for the credential after the sync.
    public var transactionKeysRemaining: Int
    /// The keys issued by this sync (empty for `synced`); already stored in the ``CredentialStore``.
    public var newTransactionKeys: [TransactionKey]
    /// The credential version.
    public var credentialVersion: Int
    /// Unused keys in the stored package after the new ones were added.
    public var storedTransactionKeys: Int

    /// Creates a result.
    public init(
        status: VaultSyncStatus,
        lastSyncAt: Date,
        transactionKeysRemaining: Int,
        newTransactionKeys: [TransactionKey],
        credentialVersion: Int,
        storedTransactionKeys: Int
    ) {
        self.status = status
        self.lastSyncAt = lastSyncAt
        self.transactionKeysRemaining = transactionKeysRemaining
        self.newTransactionKeys = newTransactionKeys
        self.credentialVersion = credentialVersion
        self.storedTransactionKeys = storedTransactionKeys
    }

    /// Status and counts; key ids only.
    public var description: String {
        "VaultSyncResult(\(status), \(newTransactionKeys.count) new keys, server \(transactionKeysRemaining), device \(storedTransactionKeys), credential version \(credentialVersion))"
    }
}
