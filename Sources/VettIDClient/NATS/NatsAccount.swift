// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation

/// A member's NATS account: the namespaces `OwnerSpace.{guid}` and `MessageSpace.{guid}` the backend allocated.
///
/// Decoded from the product documents' field names (`owner_space_id`, `message_space_id`, `nats_endpoint`,
/// `status`); the VettID server always sends all of them but `nats_endpoint`.
public struct NatsAccount: Sendable, Hashable, Codable {
    /// The member's GUID.
    public let userGUID: String
    /// `OwnerSpace.{guid}`.
    public let ownerSpace: String
    /// `MessageSpace.{guid}`.
    public let messageSpace: String
    /// The public NKey of the NATS account that signs the member's user JWTs, if the server reports it.
    public let accountPublicKey: String?
    /// When the namespaces were allocated.
    public let createdAt: Date
    /// Where apps connect, if the server reports it.
    public let endpoint: String?
    /// The account's status as the server reports it (`active`; an open set).
    public let status: String?

    /// Creates an account record.
    public init(
        userGUID: String, ownerSpace: String, messageSpace: String, accountPublicKey: String?, createdAt: Date,
        endpoint: String? = nil, status: String? = nil
    ) {
        self.userGUID = userGUID
        self.ownerSpace = ownerSpace
        self.messageSpace = messageSpace
        self.accountPublicKey = accountPublicKey
        self.createdAt = createdAt
        self.endpoint = endpoint
        self.status = status
    }
}
