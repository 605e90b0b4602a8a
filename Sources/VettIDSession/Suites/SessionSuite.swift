// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// The cipher suites a session can use, named by the u16 that travels in the handshake and in every envelope.

/// A session cipher suite: the HPKE KEM of the handshake; the KDF (HKDF-SHA256) and the per-message AEAD
/// (ChaCha20-Poly1305 with the session's own keys) are the same for both suites.
///
/// | raw | HPKE | ephemeral key | `enc` |
/// |---|---|---|---|
/// | `0x0001` ``x25519`` | DHKEM(X25519, HKDF-SHA256), HKDF-SHA256, ChaCha20-Poly1305 | 32 | 32 |
/// | `0x0002` ``xWing`` | X-Wing MLKEM768X25519 (KEM `0x647a`), HKDF-SHA256, ChaCha20-Poly1305 | 1216 | 1120 |
///
/// ``xWing`` is preferred. On Apple platforms it needs iOS / macOS 26 (CryptoKit's X-Wing), so
/// ``available`` lists it only there; on Linux both are available.
public struct SessionSuite: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The wire value.
    public let rawValue: UInt16

    /// Wraps a wire value (known or not).
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    /// `0x0001`: HPKE DHKEM(X25519, HKDF-SHA256) + HKDF-SHA256 + ChaCha20-Poly1305.
    public static let x25519 = SessionSuite(rawValue: 0x0001)
    /// `0x0002`: HPKE X-Wing (MLKEM768X25519, hybrid post-quantum) + HKDF-SHA256 + ChaCha20-Poly1305.
    public static let xWing = SessionSuite(rawValue: 0x0002)

    /// Every suite this version of the protocol defines, most preferred first.
    public static let known: [SessionSuite] = [.xWing, .x25519]

    /// The known suites this platform can run, most preferred first.
    public static var available: [SessionSuite] { known.filter(\.isAvailable) }

    /// Whether the protocol defines this suite.
    public var isKnown: Bool { Self.known.contains(self) }

    /// Whether this platform can run the suite (X-Wing needs iOS / macOS 26 on Apple platforms).
    public var isAvailable: Bool {
        switch self {
        case .x25519: return true
        case .xWing:
            if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) { return true }
            return false
        default: return false
        }
    }

    /// The length of an ephemeral public key offered with this suite, or nil for an unknown suite.
    public var ephemeralPublicKeyLength: Int? {
        switch self {
        case .x25519: 32
        case .xWing: 1216
        default: nil
        }
    }

    /// The length of the HPKE encapsulated key (`enc`) of this suite, or nil for an unknown suite.
    public var encapsulatedKeyLength: Int? {
        switch self {
        case .x25519: 32
        case .xWing: 1120
        default: nil
        }
    }

    /// `0x0001 (X25519)`, `0x0002 (X-Wing)`, `0x00ff`.
    public var description: String {
        let digits = Array("0123456789abcdef")
        let hex = (0..<4).map { digits[Int((rawValue >> UInt16(12 - 4 * $0)) & 0xF)] }
        let name =
            switch self {
            case .x25519: " (X25519)"
            case .xWing: " (X-Wing)"
            default: ""
            }
        return "0x" + String(hex) + name
    }
}
