// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// The id of a vault handler, as execute requests name it (`handler_id`, 1 to 128 bytes).
///
/// Defined once for the app and the vault worker: the SDK sends `.echo`, the worker's echo handler answers to the
/// same constant. The set is open: a vault may offer handlers this version does not name (its `eventTypes`
/// answer lists them).
public struct VaultHandlerID: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    /// The wire value.
    public let rawValue: String

    /// Creates an id from its wire value.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Creates an id from a string literal.
    public init(stringLiteral value: String) { self.rawValue = value }

    /// The wire value.
    public var description: String { rawValue }

    /// Whether the id has the length execute requests allow (1 to 128 bytes).
    public var isValid: Bool { (1...128).contains(rawValue.utf8.count) }

    /// `echo`: returns the payload unchanged (a connectivity check).
    public static let echo = VaultHandlerID(rawValue: "echo")
    /// `vault.info`: the member's vault as the worker sees it (namespace, worker, handlers).
    public static let vaultInfo = VaultHandlerID(rawValue: "vault.info")
}
