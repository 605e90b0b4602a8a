// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation

/// A vault's lifecycle status as `GET /vault/status` reports it (an open set: a status this SDK does not know
/// arrives as an unknown value instead of failing).
///
/// `not_enrolled` → `pending` (enrollment started) → `enrolled` (finalized) → `active` (deployed); `error` when the
/// server could not provision or serve the vault (see ``VaultStatus/errorMessage``). docs/protocol.md §6 has the
/// transitions.
public struct VaultStatusValue: RawRepresentable, Hashable, Sendable, Codable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    /// The wire value, e.g. `active`.
    public let rawValue: String
    /// Creates a status from its wire value.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Creates a status from a string literal.
    public init(stringLiteral value: String) { self.rawValue = value }
    /// The wire value.
    public var description: String { rawValue }

    /// `not_enrolled`: the member has no vault credential.
    public static let notEnrolled = VaultStatusValue(rawValue: "not_enrolled")
    /// `pending`: an enrollment is in progress.
    public static let pending = VaultStatusValue(rawValue: "pending")
    /// `enrolled`: the credential exists; the vault is not deployed yet.
    public static let enrolled = VaultStatusValue(rawValue: "enrolled")
    /// `active`: the vault is deployed and serving.
    public static let active = VaultStatusValue(rawValue: "active")
    /// `error`: the vault is in a failed state (see ``VaultStatus/errorMessage``).
    public static let error = VaultStatusValue(rawValue: "error")

    /// The statuses this SDK knows.
    public static let known: [VaultStatusValue] = [.notEnrolled, .pending, .enrolled, .active, .error]

    /// Whether this SDK knows the status.
    public var isKnown: Bool { Self.known.contains(self) }
}

/// The answer of `GET /vault/status`: the status and, as they apply, the member, dates, device and key pool.
public struct VaultStatus: Sendable, Hashable, CustomStringConvertible {
    /// The lifecycle status.
    public var status: VaultStatusValue
    /// The member's id (absent when not enrolled).
    public var userGUID: String?
    /// When enrollment finalized.
    public var enrolledAt: Date?
    /// The last successful vault authentication.
    public var lastAuthAt: Date?
    /// The last sync.
    public var lastSyncAt: Date?
    /// The enrolled device's type.
    public var deviceType: VaultDeviceType?
    /// The enrolled key's security level (`hardware`, `software`, `development`).
    public var securityLevel: String?
    /// Unused transaction keys the server holds for the credential.
    public var transactionKeysRemaining: Int?
    /// The credential (key) version.
    public var credentialVersion: Int?
    /// Why the vault is in `error` (server text, no secrets).
    public var errorMessage: String?

    /// Creates a status.
    public init(
        status: VaultStatusValue,
        userGUID: String? = nil,
        enrolledAt: Date? = nil,
        lastAuthAt: Date? = nil,
        lastSyncAt: Date? = nil,
        deviceType: VaultDeviceType? = nil,
        securityLevel: String? = nil,
        transactionKeysRemaining: Int? = nil,
        credentialVersion: Int? = nil,
        errorMessage: String? = nil
    ) {
        self.status = status
        self.userGUID = userGUID
        self.enrolledAt = enrolledAt
        self.lastAuthAt = lastAuthAt
        self.lastSyncAt = lastSyncAt
        self.deviceType = deviceType
        self.securityLevel = securityLevel
        self.transactionKeysRemaining = transactionKeysRemaining
        self.credentialVersion = credentialVersion
        self.errorMessage = errorMessage
    }

    /// The status, member and key count.
    public var description: String {
        var text = "VaultStatus(\(status)"
        if let userGUID { text += ", user: \(userGUID)" }
        if let transactionKeysRemaining { text += ", \(transactionKeysRemaining) transaction keys" }
        if let credentialVersion { text += ", credential version \(credentialVersion)" }
        return text + ")"
    }
}
