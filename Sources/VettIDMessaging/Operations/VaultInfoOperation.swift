// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// `vault.info`: the member's vault as the worker sees it. Sealed-only: it names the member's spaces and keys.
public enum VaultInfoOperation: VaultOperation {
    public typealias Request = VaultEmptyPayload
    public typealias Result = VaultInfo
    public static let handlerID = VaultHandlerID.vaultInfo
    public static let summary = "The member's vault status, transaction keys remaining and NATS spaces."
    public static let requestShape = "{}"
    public static let resultShape =
        "{user_guid, vault_status, transaction_keys_remaining?, owner_space_id, message_space_id}"
    public static let isSealedOnly = true
}

/// The result of `vault.info`.
public struct VaultInfo: VaultCodablePayload, Hashable {
    /// The member's GUID.
    public let userGUID: String
    /// The vault's state (`active`, `enrolled`, …).
    public let vaultStatus: String
    /// Unused transaction keys of the member's newest credential; `nil` when the member has none.
    public let transactionKeysRemaining: Int?
    /// `OwnerSpace.{guid}`.
    public let ownerSpaceID: String
    /// `MessageSpace.{guid}`.
    public let messageSpaceID: String

    public init(
        userGUID: String, vaultStatus: String, transactionKeysRemaining: Int?, ownerSpaceID: String,
        messageSpaceID: String
    ) {
        self.userGUID = userGUID
        self.vaultStatus = vaultStatus
        self.transactionKeysRemaining = transactionKeysRemaining
        self.ownerSpaceID = ownerSpaceID
        self.messageSpaceID = messageSpaceID
    }

    enum CodingKeys: String, CodingKey {
        case userGUID = "user_guid"
        case vaultStatus = "vault_status"
        case transactionKeysRemaining = "transaction_keys_remaining"
        case ownerSpaceID = "owner_space_id"
        case messageSpaceID = "message_space_id"
    }
}
