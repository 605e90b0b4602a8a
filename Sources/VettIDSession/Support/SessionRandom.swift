// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// Where the session reads its random bytes: nonces, session ids, ephemeral keys, request ids.

/// A source of random bytes, injected so that tests (and the worked example) are deterministic.
///
/// HPKE's encapsulation and ECDSA signing draw their own randomness inside swift-crypto; everything else the
/// session picks at random comes from here.
public protocol SessionRandom: Sendable {
    /// `count` random bytes.
    func bytes(_ count: Int) -> [UInt8]
}

/// The system's cryptographically secure generator.
public struct SystemSessionRandom: SessionRandom {
    /// Creates the system source.
    public init() {}

    /// `count` bytes from `SystemRandomNumberGenerator`.
    public func bytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }
}

extension SessionRandom where Self == SystemSessionRandom {
    /// The system's cryptographically secure generator.
    public static var system: SystemSessionRandom { SystemSessionRandom() }
}
