// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// The member's profile in the vault: get and update (docs/protocol.md §7.4). Sealed-only.

/// `profile.get`: the member's profile fields.
public enum ProfileGetOperation: VaultOperation {
    public typealias Request = VaultEmptyPayload
    public typealias Result = VaultProfile
    public static let handlerID: VaultHandlerID = "profile.get"
    public static let summary = "The member's profile: named text fields kept in the vault."
    public static let requestShape = "{}"
    public static let resultShape = "{fields: {name: value}, version, updated_at?}"
    public static let isSealedOnly = true
}

/// `profile.update`: sets and removes profile fields in one step.
public enum ProfileUpdateOperation: VaultOperation {
    public typealias Request = ProfileUpdateRequest
    public typealias Result = VaultProfile
    public static let handlerID: VaultHandlerID = "profile.update"
    public static let summary = "Sets and removes profile fields; answers the profile as stored."
    public static let requestShape = "{set?: {name: value}, remove?: [name], expected_version?}"
    public static let resultShape = "{fields: {name: value}, version, updated_at?}"
    public static let isSealedOnly = true
}

/// The member's profile: text fields by name (``VaultDataLimits/checkProfileField(name:value:)``).
public struct VaultProfile: VaultCodablePayload, Hashable {
    /// The fields.
    public let fields: [String: String]
    /// 0 before the first update, one more for each update since.
    public let version: Int64
    /// When it was last updated, in milliseconds since 1970; `nil` before the first update.
    public let updatedAt: Int64?

    public init(fields: [String: String], version: Int64, updatedAt: Int64?) {
        self.fields = fields
        self.version = version
        self.updatedAt = updatedAt
    }

    /// The profile of a member who never set one.
    public static let empty = VaultProfile(fields: [:], version: 0, updatedAt: nil)

    enum CodingKeys: String, CodingKey {
        case fields, version
        case updatedAt = "updated_at"
    }
}

/// The request of `profile.update`: `set` is applied, then `remove`.
public struct ProfileUpdateRequest: VaultCodablePayload, Hashable {
    /// Fields to set.
    public let set: [String: String]
    /// Fields to remove.
    public let remove: [String]
    /// The version the app expects to update (`version_conflict` otherwise); `nil`: any.
    public let expectedVersion: Int64?

    public init(set: [String: String] = [:], remove: [String] = [], expectedVersion: Int64? = nil) {
        self.set = set
        self.remove = remove
        self.expectedVersion = expectedVersion
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        set = try container.decodeIfPresent([String: String].self, forKey: .set) ?? [:]
        remove = try container.decodeIfPresent([String].self, forKey: .remove) ?? []
        expectedVersion = try container.decodeIfPresent(Int64.self, forKey: .expectedVersion)
    }

    enum CodingKeys: String, CodingKey {
        case set, remove
        case expectedVersion = "expected_version"
    }
}
