// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import VettIDCrypto

// The 16 random bytes that name a session in the handshake response and in every envelope header.

/// A session's id: 16 random bytes chosen by the vault.
public struct SessionID: Sendable, Hashable, CustomStringConvertible {
    /// The length of an id.
    public static let length = 16

    /// The 16 bytes.
    public let bytes: [UInt8]

    /// Wraps 16 bytes; nil for any other length.
    public init?(bytes: [UInt8]) {
        guard bytes.count == Self.length else { return nil }
        self.bytes = bytes
    }

    /// Wraps bytes a parser has already read as exactly 16.
    init(validBytes: [UInt8]) {
        precondition(validBytes.count == Self.length, "a session id is 16 bytes")
        self.bytes = validBytes
    }

    /// A fresh random id.
    public static func random(_ random: some SessionRandom) -> SessionID {
        SessionID(validBytes: random.bytes(length))
    }

    /// Lowercase hex.
    public var description: String { Hex.encode(bytes) }
}
