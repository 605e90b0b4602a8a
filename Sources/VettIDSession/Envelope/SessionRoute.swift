// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import VettIDCrypto

// Which vault instance holds a session: the first bytes of its id, and the last token of its request subject.

/// The vault instance (server process) that answered a session's handshake and holds the session: the first
/// ``length`` bytes of every ``SessionID`` it issues.
///
/// Sessions live in the memory of that instance (all its worker connections share them); the app sends the
/// session's envelopes to `OwnerSpace.{guid}.forVault.sealed.{route}` (``subjectToken``), which only that
/// instance's workers subscribe, so any of them may answer and no other instance sees the session
/// (docs/protocol.md §7.3).
public struct SessionRoute: Sendable, Hashable, CustomStringConvertible {
    /// How many bytes of a session id name the instance.
    public static let length = 4

    /// The instance's bytes.
    public let bytes: [UInt8]

    /// Wraps ``length`` bytes; nil for any other length.
    public init?(bytes: [UInt8]) {
        guard bytes.count == Self.length else { return nil }
        self.bytes = bytes
    }

    /// A fresh random route: what an instance picks when it starts.
    public static func random(_ random: some SessionRandom) -> SessionRoute {
        SessionRoute(bytes: random.bytes(length))!
    }

    /// The route as a subject token: eight lowercase hex digits.
    public var subjectToken: String { Hex.encode(bytes) }

    /// The same as ``subjectToken``.
    public var description: String { subjectToken }
}

extension SessionID {
    /// A fresh id of a session held by `route`: its bytes, then random ones.
    public static func random(_ random: some SessionRandom, route: SessionRoute) -> SessionID {
        SessionID(validBytes: route.bytes + random.bytes(length - SessionRoute.length))
    }

    /// The instance that holds the session: the id's first ``SessionRoute/length`` bytes.
    public var route: SessionRoute { SessionRoute(bytes: Array(bytes.prefix(SessionRoute.length)))! }
}
