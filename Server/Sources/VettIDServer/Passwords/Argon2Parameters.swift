// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// Argon2id cost parameters.
///
/// The default is RFC 9106 §4's SECOND RECOMMENDED option (t=3, m=64 MiB, p=4, 16-byte salt, 32-byte tag):
/// stronger than OWASP's floor (m=19 MiB, t=2, p=1) and cheap enough for a login server when the number of
/// concurrent hashes is bounded (``PasswordHasher/Configuration/maxConcurrentHashes``), which caps memory at
/// `maxConcurrentHashes × memoryKiB`. See docs/security.md.
public struct Argon2Parameters: Sendable, Equatable {
    /// Passes over memory (t).
    public var iterations: UInt32
    /// Memory in KiB (m).
    public var memoryKiB: UInt32
    /// Lanes (p).
    public var parallelism: UInt32
    /// Salt length in bytes.
    public var saltLength: Int
    /// Tag (hash) length in bytes.
    public var hashLength: Int

    public init(iterations: UInt32, memoryKiB: UInt32, parallelism: UInt32, saltLength: Int = 16, hashLength: Int = 32)
    {
        self.iterations = iterations
        self.memoryKiB = memoryKiB
        self.parallelism = parallelism
        self.saltLength = saltLength
        self.hashLength = hashLength
    }

    /// RFC 9106 second recommendation: t=3, m=64 MiB, p=4.
    public static let rfc9106LowMemory = Argon2Parameters(iterations: 3, memoryKiB: 65_536, parallelism: 4)
    /// OWASP's minimum: t=2, m=19 MiB, p=1.
    public static let owaspMinimum = Argon2Parameters(iterations: 2, memoryKiB: 19_456, parallelism: 1)
    /// Deliberately weak parameters for fast tests. Never use in production.
    public static let testing = Argon2Parameters(iterations: 1, memoryKiB: 1_024, parallelism: 1)
}
