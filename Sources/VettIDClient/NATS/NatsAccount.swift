public import Foundation

/// A member's NATS account: the namespaces `OwnerSpace.{guid}` and `MessageSpace.{guid}` the backend allocated.
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

    /// Creates an account record.
    public init(userGUID: String, ownerSpace: String, messageSpace: String, accountPublicKey: String?, createdAt: Date) {
        self.userGUID = userGUID
        self.ownerSpace = ownerSpace
        self.messageSpace = messageSpace
        self.accountPublicKey = accountPublicKey
        self.createdAt = createdAt
    }
}
