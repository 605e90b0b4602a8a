// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// The role of an NKey, encoded in its first base32 character.

/// The role of an NKey (operator, account, user, server, cluster, curve), carried by its prefix byte.
///
/// The prefix value is chosen so that the first base32 character of an encoded public key names its
/// role: `O` operator, `A` account, `U` user, `N` server, `C` cluster, `X` curve.
public struct NKeyType: Sendable, Hashable, CustomStringConvertible {
    /// The prefix byte written before the 32 key bytes of an encoded public key.
    public let prefixByte: UInt8
    /// A readable name (`"user"`, `"account"`, …).
    public let name: String

    private init(prefixByte: UInt8, name: String) {
        self.prefixByte = prefixByte
        self.name = name
    }

    /// Operator keys, `O…`.
    public static let `operator` = NKeyType(prefixByte: 14 << 3, name: "operator")
    /// Account keys, `A…`.
    public static let account = NKeyType(prefixByte: 0, name: "account")
    /// User keys, `U…`.
    public static let user = NKeyType(prefixByte: 20 << 3, name: "user")
    /// Server keys, `N…`.
    public static let server = NKeyType(prefixByte: 13 << 3, name: "server")
    /// Cluster keys, `C…`.
    public static let cluster = NKeyType(prefixByte: 2 << 3, name: "cluster")

    /// Every public-key type this library signs with (curve keys are not Ed25519 and are not supported).
    public static let all: [NKeyType] = [.operator, .account, .user, .server, .cluster]

    /// The prefix byte of an encoded seed (`S…`).
    static let seedPrefixByte: UInt8 = 18 << 3

    /// The type whose prefix byte is `prefixByte`, if any.
    public init?(prefixByte: UInt8) {
        guard let match = NKeyType.all.first(where: { $0.prefixByte == prefixByte }) else { return nil }
        self = match
    }

    /// The type name.
    public var description: String { name }
}
