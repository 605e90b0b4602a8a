public import Foundation
import VettIDAPI

/// The signed-in member, as `GET /auth/me` describes them.
public struct AuthenticatedUser: Codable, Sendable, Equatable, Identifiable {
    /// The member id (a UUID string).
    public var id: String
    /// The normalised email.
    public var email: String
    /// When the account was created.
    public var createdAt: Date

    /// Creates a user value.
    public init(id: String, email: String, createdAt: Date) {
        self.id = id
        self.email = email
        self.createdAt = createdAt
    }

    init(_ user: Components.Schemas.User) {
        self.init(id: user.id, email: user.email, createdAt: user.createdAt)
    }

    enum CodingKeys: String, CodingKey {
        case id
        case email
        case createdAt = "created_at"
    }
}
