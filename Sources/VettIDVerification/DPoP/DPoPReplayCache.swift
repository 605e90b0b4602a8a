// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import VettIDCrypto

// Storage of accepted proof identifiers, to refuse replays (RFC 9449 §11.1).

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// The identity of an accepted proof: SHA-256 over the normalized target URI and the `jti`, so the
/// cache holds a fixed 32 bytes per proof whatever the client sent, and a `jti` is scoped per URI.
public struct DPoPReplayKey: Sendable, Hashable {
    /// The 32-byte digest.
    public let digest: [UInt8]

    /// Derives the key: SHA-256(u32be(len(htu)) ‖ htu ‖ jti), all UTF-8.
    public init(normalizedTargetURI: String, jti: String) {
        let length = UInt32(truncatingIfNeeded: normalizedTargetURI.utf8.count)
        var hash = SHA256()
        withUnsafeBytes(of: length.bigEndian) { hash.update(bufferPointer: $0) }
        Self.update(&hash, with: normalizedTargetURI)
        Self.update(&hash, with: jti)
        self.digest = hash.finalize().withUnsafeBytes { Array($0) }
    }

    private static func update(_ hash: inout SHA256, with text: String) {
        var text = text
        text.withUTF8 { hash.update(bufferPointer: UnsafeRawBufferPointer($0)) }
    }

    /// Equal keys have equal digests.
    public static func == (lhs: DPoPReplayKey, rhs: DPoPReplayKey) -> Bool { lhs.digest == rhs.digest }

    /// Hashes the digest's bytes in one call (a uniformly random digest; `[UInt8]`'s own hashing feeds the hasher
    /// one byte at a time).
    public func hash(into hasher: inout Hasher) {
        digest.withUnsafeBytes { hasher.combine(bytes: $0) }
    }
}

/// Where a ``DPoPVerifier`` records accepted proofs.
///
/// A server with several instances uses a shared implementation (for example a database table with a
/// unique key and an expiry column); ``InMemoryDPoPReplayCache`` serves a single instance.
public protocol DPoPReplayCache: Sendable {
    /// Whether `key` was recorded and has not expired at `now`. Does not record anything.
    func contains(_ key: DPoPReplayKey, now: Date) async -> Bool

    /// Records `key` until `expiresAt`, atomically.
    /// - Returns: `false` when the key was already present and unexpired (a replay), `true` otherwise.
    func insert(_ key: DPoPReplayKey, expiresAt: Date, now: Date) async -> Bool
}
