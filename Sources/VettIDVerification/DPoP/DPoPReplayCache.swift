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
        let htu = Array(normalizedTargetURI.utf8)
        let length = UInt32(truncatingIfNeeded: htu.count)
        var input = [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
        input += htu
        input += Array(jti.utf8)
        self.digest = Array(SHA256.hash(data: input))
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
