// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation
import VettIDAPI

/// The signed-in member, as `GET /auth/me` describes them.
public struct AuthenticatedUser: Codable, Sendable, Equatable, Identifiable {
    /// The member id (a UUID string).
    public var id: String
    /// The normalised email.
    public var email: String
    /// The first name given at registration, if any.
    public var firstName: String?
    /// The last name given at registration, if any.
    public var lastName: String?
    /// When the account was created.
    public var createdAt: Date

    /// Creates a user value.
    public init(id: String, email: String, firstName: String? = nil, lastName: String? = nil, createdAt: Date) {
        self.id = id
        self.email = email
        self.firstName = firstName
        self.lastName = lastName
        self.createdAt = createdAt
    }

    init(_ user: Components.Schemas.User) {
        self.init(
            id: user.id, email: user.email, firstName: user.firstName, lastName: user.lastName,
            createdAt: user.createdAt)
    }

    /// From `GET /auth/me`: `{"user": …}` (this server, the product documents) or a bare user (servers before
    /// 2026-11-25).
    init(_ payload: Operations.GetCurrentUser.Output.Ok.Body.JsonPayload) {
        switch payload {
        case .UserResponse(let response): self.init(response.user)
        case .User(let user): self.init(user)
        }
    }

    enum CodingKeys: String, CodingKey {
        case id
        case email
        case firstName = "first_name"
        case lastName = "last_name"
        case createdAt = "created_at"
    }
}
