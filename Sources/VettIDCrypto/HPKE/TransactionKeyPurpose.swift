// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// What a transaction-key envelope is for; bound into the HPKE info.

/// The purpose of an encrypted payload, bound into the HPKE `info` so a ciphertext made for one purpose
/// cannot be opened for another. An open set: add values with `TransactionKeyPurpose(rawValue:)`.
public struct TransactionKeyPurpose: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The identifier, written into `info` as UTF-8.
    public let rawValue: String
    /// Wraps a raw identifier.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The password set during enrollment.
    public static let enrollmentPassword = TransactionKeyPurpose(rawValue: "enrollment-password")
    /// The password sent to authenticate (auth execute).
    public static let authenticationPassword = TransactionKeyPurpose(rawValue: "authentication-password")

    public var description: String { rawValue }
}
