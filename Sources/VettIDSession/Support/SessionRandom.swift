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

    /// `count` bytes from `SystemRandomNumberGenerator`, taken eight at a time (each word is one read of the
    /// system's generator, a system call on Linux).
    public func bytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count + 7)
        while bytes.count < count {
            withUnsafeBytes(of: generator.next() as UInt64) { bytes.append(contentsOf: $0) }
        }
        bytes.removeLast(bytes.count - count)
        return bytes
    }
}

extension SessionRandom where Self == SystemSessionRandom {
    /// The system's cryptographically secure generator.
    public static var system: SystemSessionRandom { SystemSessionRandom() }
}
