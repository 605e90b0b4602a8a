// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// The member's secrets: put, get, list, delete (docs/protocol.md §7.4). All sealed-only.

public import Foundation

/// `secret.put`: stores a value under a name, as version 1 or the next version of that name.
public enum SecretPutOperation: VaultOperation {
    public typealias Request = SecretPutRequest
    public typealias Result = SecretSummary
    public static let handlerID: VaultHandlerID = "secret.put"
    public static let summary = "Stores a secret value under a name (the next version when the name exists)."
    public static let requestShape = "{name, value: base64, expected_version?: 0 for a new name, else the current}"
    public static let resultShape = "{name, version, size, updated_at}"
    public static let isSealedOnly = true
}

/// `secret.get`: a secret's value; needs a vault authentication of this device within the vault's window.
public enum SecretGetOperation: VaultOperation {
    public typealias Request = SecretNameRequest
    public typealias Result = SecretValue
    public static let handlerID: VaultHandlerID = "secret.get"
    public static let summary =
        "A secret's value; needs a vault authentication of this device within the vault's window."
    public static let requestShape = "{name}"
    public static let resultShape = "{name, value: base64, version, updated_at}"
    public static let isSealedOnly = true
}

/// `secret.list`: the names and versions of the member's secrets, without values.
public enum SecretListOperation: VaultOperation {
    public typealias Request = VaultEmptyPayload
    public typealias Result = SecretList
    public static let handlerID: VaultHandlerID = "secret.list"
    public static let summary = "The member's secret names, versions and sizes (no values), and the limits."
    public static let requestShape = "{}"
    public static let resultShape = "{secrets: [{name, version, size, updated_at}], total_bytes, limits}"
    public static let isSealedOnly = true
}

/// `secret.delete`: removes a secret from the store.
public enum SecretDeleteOperation: VaultOperation {
    public typealias Request = SecretNameRequest
    public typealias Result = SecretSummary
    public static let handlerID: VaultHandlerID = "secret.delete"
    public static let summary = "Deletes a secret; its value is gone from the store."
    public static let requestShape = "{name, expected_version?}"
    public static let resultShape = "{name, version, size, updated_at} of the deleted secret"
    public static let isSealedOnly = true
}

/// The request of `secret.put`.
public struct SecretPutRequest: VaultCodablePayload, Hashable {
    /// The secret's name (``VaultDataLimits/checkSecretName(_:)``).
    public let name: String
    /// The value.
    public let value: Data
    /// The version the app expects to replace: `0` for a name that must be new, `nil` to replace whatever is
    /// stored. Another value answers `version_conflict`.
    public let expectedVersion: Int64?

    public init(name: String, value: Data, expectedVersion: Int64? = nil) {
        self.name = name
        self.value = value
        self.expectedVersion = expectedVersion
    }

    enum CodingKeys: String, CodingKey {
        case name, value
        case expectedVersion = "expected_version"
    }
}

/// The request of `secret.get` and `secret.delete`.
public struct SecretNameRequest: VaultCodablePayload, Hashable {
    /// The secret's name.
    public let name: String
    /// For `secret.delete`: the version the app expects to delete (`version_conflict` otherwise); `nil`: any.
    public let expectedVersion: Int64?

    public init(name: String, expectedVersion: Int64? = nil) {
        self.name = name
        self.expectedVersion = expectedVersion
    }

    enum CodingKeys: String, CodingKey {
        case name
        case expectedVersion = "expected_version"
    }
}

/// A secret without its value: what `secret.put` and `secret.delete` answer and `secret.list` lists.
public struct SecretSummary: VaultCodablePayload, Hashable, Identifiable {
    /// The name.
    public let name: String
    /// The version: 1 for the first value stored under the name, one more for each put since.
    public let version: Int64
    /// The value's size in bytes.
    public let size: Int
    /// When this version was stored, in milliseconds since 1970.
    public let updatedAt: Int64

    public var id: String { name }

    public init(name: String, version: Int64, size: Int, updatedAt: Int64) {
        self.name = name
        self.version = version
        self.size = size
        self.updatedAt = updatedAt
    }

    enum CodingKeys: String, CodingKey {
        case name, version, size
        case updatedAt = "updated_at"
    }
}

/// The result of `secret.get`.
public struct SecretValue: VaultCodablePayload, Hashable {
    /// The name.
    public let name: String
    /// The value.
    public let value: Data
    /// The version read.
    public let version: Int64
    /// When this version was stored, in milliseconds since 1970.
    public let updatedAt: Int64

    public init(name: String, value: Data, version: Int64, updatedAt: Int64) {
        self.name = name
        self.value = value
        self.version = version
        self.updatedAt = updatedAt
    }

    enum CodingKeys: String, CodingKey {
        case name, value, version
        case updatedAt = "updated_at"
    }
}

/// The result of `secret.list`.
public struct SecretList: VaultCodablePayload, Hashable {
    /// The secrets, by name.
    public let secrets: [SecretSummary]
    /// The bytes of all values together.
    public let totalBytes: Int
    /// The vault's limits.
    public let limits: VaultDataLimits

    public init(secrets: [SecretSummary], totalBytes: Int, limits: VaultDataLimits) {
        self.secrets = secrets
        self.totalBytes = totalBytes
        self.limits = limits
    }

    enum CodingKeys: String, CodingKey {
        case secrets, limits
        case totalBytes = "total_bytes"
    }
}
