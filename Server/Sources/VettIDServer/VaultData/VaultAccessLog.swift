// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
public import Logging
import NIOConcurrencyHelpers
public import ServiceLifecycle
public import VettIDCore

/// Records every vault handler call (``VaultAccessEntry``) without holding up the answer: ``record(_:)`` only
/// queues, and ``run()`` (a service of the server's group) writes what queued in one transaction per batch. Entries
/// older than ``Configuration/retention``, and a member's beyond ``Configuration/maxPerMember``, are pruned once an
/// hour.
///
/// What is lost: entries queued when the process dies before the next write (at most one batch), and entries beyond
/// ``Configuration/maxQueued`` when the store stays down (counted and logged, never blocking the vault).
public final class VaultAccessLog: Service, Sendable {
    /// How much queues, and how long entries are kept.
    public struct Configuration: Sendable {
        /// The most entries waiting to be written; more are dropped (counted).
        public var maxQueued: Int
        /// How long entries are kept (default 90 days).
        public var retention: Duration
        /// The most entries kept per member (default 10,000): a member's device cannot grow the table without bound
        /// by sending requests.
        public var maxPerMember: Int
        /// The least time between two writes (default 100 ms): entries arriving meanwhile go into the next batch.
        /// A write has a fixed cost (a transaction, its commit, a member check per member), which a busy vault would
        /// otherwise pay for a handful of entries each time it wakes.
        public var batchInterval: Duration

        public init(
            maxQueued: Int = 10_000, retention: Duration = .seconds(90 * 24 * 3600), maxPerMember: Int = 10_000,
            batchInterval: Duration = .milliseconds(100)
        ) {
            self.maxQueued = maxQueued
            self.retention = retention
            self.maxPerMember = maxPerMember
            self.batchInterval = batchInterval
        }
    }

    private struct Queue {
        var entries: [VaultAccessEntry] = []
        var dropped = 0
    }

    public let configuration: Configuration
    private let repository: VaultAccessLogRepository
    private let clock: any WallClock
    private let logger: Logger
    private let queue = NIOLockedValueBox(Queue())
    private let wake: AsyncStream<Void>
    private let wakeContinuation: AsyncStream<Void>.Continuation

    public init(
        repository: VaultAccessLogRepository, configuration: Configuration = .init(),
        clock: any WallClock = SystemWallClock(), logger: Logger
    ) {
        self.repository = repository
        self.configuration = configuration
        self.clock = clock
        self.logger = logger
        (wake, wakeContinuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// Queues `entry` to be written.
    public func record(_ entry: VaultAccessEntry) {
        let queued = queue.withLockedValue { queue in
            guard queue.entries.count < configuration.maxQueued else {
                queue.dropped += 1
                return false
            }
            queue.entries.append(entry)
            return true
        }
        if queued { wakeContinuation.yield() }
    }

    /// Writes what is queued now (the service does this by itself; tests and shutdown call it).
    public func flush() async {
        let (batch, dropped) = queue.withLockedValue { queue in
            defer { queue = Queue() }
            return (queue.entries, queue.dropped)
        }
        if dropped > 0 {
            logger.warning(
                "vault access log entries dropped: the store did not keep up", metadata: ["dropped": "\(dropped)"])
        }
        guard !batch.isEmpty else { return }
        do {
            let skipped = try await repository.insert(batch)
            if skipped > 0 {
                logger.notice(
                    "vault access log entries of unknown members skipped", metadata: ["entries": "\(skipped)"])
            }
        } catch {
            logger.error(
                "vault access log entries could not be written",
                metadata: ["entries": "\(batch.count)", "error": "\(type(of: error))"])
        }
    }

    /// Writes queued entries until graceful shutdown, at most once per ``Configuration/batchInterval``, then writes
    /// the rest.
    public func run() async throws {
        var lastPrune = ContinuousClock.now - .seconds(3600)
        var lastWrite = ContinuousClock.now - configuration.batchInterval
        for await _ in wake.cancelOnGracefulShutdown() {
            let next = lastWrite + configuration.batchInterval
            if ContinuousClock.now < next {
                // Cancelled by graceful shutdown: the loop ends and the rest is written below.
                try? await cancelWhenGracefulShutdown { try await Task.sleep(until: next, clock: .continuous) }
            }
            lastWrite = ContinuousClock.now
            await flush()
            if ContinuousClock.now - lastPrune >= .seconds(3600) {
                lastPrune = ContinuousClock.now
                let cutoff = clock.now().addingTimeInterval(-Double(configuration.retention.components.seconds))
                do {
                    try await repository.prune(before: cutoff, maxPerMember: configuration.maxPerMember)
                } catch {
                    logger.error("vault access log pruning failed", metadata: ["error": "\(type(of: error))"])
                }
            }
        }
        await flush()
    }
}
