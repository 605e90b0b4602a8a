// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import NIOCore
public import NIOPosix

/// Hashes and verifies member passwords with Argon2id, off the request threads, with bounded concurrency.
public final class PasswordHasher: Sendable {
    /// How passwords are hashed.
    public struct Configuration: Sendable {
        /// Cost parameters for new hashes; a stored hash with other parameters is rehashed at the next login.
        public var parameters: Argon2Parameters
        /// How many hashes may run at once; memory peaks at `maxConcurrentHashes × parameters.memoryKiB`.
        public var maxConcurrentHashes: Int

        public init(parameters: Argon2Parameters = .rfc9106LowMemory, maxConcurrentHashes: Int = 4) {
            self.parameters = parameters
            self.maxConcurrentHashes = maxConcurrentHashes
        }
    }

    public let configuration: Configuration
    private let limiter: ConcurrencyLimiter
    private let threadPool: NIOThreadPool
    private let metrics: ServerMetrics?

    /// The process-wide pool the hashes run on by default: separate from `NIOThreadPool.singleton`, where the
    /// SQLite driver runs its statements, so database work never queues behind a 100 ms hash.
    public static let hashingPool: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: max(2, System.coreCount))
        pool.start()
        return pool
    }()

    public init(
        configuration: Configuration, threadPool: NIOThreadPool = PasswordHasher.hashingPool,
        metrics: ServerMetrics? = nil
    ) {
        self.configuration = configuration
        self.limiter = ConcurrencyLimiter(limit: max(1, configuration.maxConcurrentHashes))
        self.threadPool = threadPool
        self.metrics = metrics
    }

    /// Runs one Argon2 computation on the pool once a slot is free, recording the wait and the hashes in flight.
    private func run<Result: Sendable>(_ work: @escaping @Sendable () throws -> Result) async throws -> Result {
        let queued = ContinuousClock.now
        return try await limiter.run {
            metrics?.argon2Waited(ContinuousClock.now - queued)
            metrics?.argon2InFlight(1)
            defer { metrics?.argon2InFlight(-1) }
            return try await threadPool.runIfActive(work)
        }
    }

    /// A new PHC string for `password` with a fresh random salt.
    public func hash(_ password: String) async throws -> String {
        let parameters = configuration.parameters
        var generator = SystemRandomNumberGenerator()
        let salt = (0..<parameters.saltLength).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let bytes = Array(password.utf8)
        return try await run { try Argon2.hashEncoded(password: bytes, salt: salt, parameters: parameters) }
    }

    /// Whether `password` matches `phc`, and whether the stored hash should be replaced (other parameters).
    public func verify(_ password: String, against phc: String) async throws -> (matches: Bool, needsRehash: Bool) {
        let bytes = Array(password.utf8)
        let matches = try await run { Argon2.verify(encoded: phc, password: bytes) }
        let needsRehash = matches && !(PHCString(phc)?.matches(configuration.parameters) ?? false)
        return (matches, needsRehash)
    }

    /// Spends the same time as a real verification, for an unknown account, so that timing does not reveal
    /// whether an email is registered.
    public func verifyAgainstDummy(_ password: String) async throws {
        _ = try await verify(password, against: dummyHash)
    }

    private var dummyHash: String {
        let p = configuration.parameters
        // A well-formed PHC string with the configured costs and an all-zero salt and tag: never matches a real
        // password in practice, costs exactly one verification.
        return "$argon2id$v=19$m=\(p.memoryKiB),t=\(p.iterations),p=\(p.parallelism)$AAAAAAAAAAAAAAAAAAAAAA$"
            + "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
    }
}
