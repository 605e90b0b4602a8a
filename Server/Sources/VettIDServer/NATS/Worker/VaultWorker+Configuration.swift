// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// The vault worker's immutable configuration.

import Foundation
public import NATSClient
import VettIDCore
public import VettIDMessaging

extension VaultWorker {
    /// Where the worker's lanes run: decoding a request, its handler and publishing the answer.
    public enum LaneExecutor: Sendable, Equatable {
        /// On the event loop of the worker's NATS connection (its `NATSClient.taskExecutor`), the default: a
        /// request is read, handled and answered on one thread, without a hop to another thread and back per
        /// batch of requests, which is most of what a raw NATS responder does not pay (docs/benchmarks.md). A
        /// handler that awaits (a database, another service) frees the loop while it waits, so other requests go
        /// on; a handler that blocks the thread or computes for long holds this worker's connection meanwhile (its
        /// reads, its writes and its other requests; other workers have their own connections): such handlers
        /// belong on ``globalConcurrent``.
        case connectionEventLoop
        /// On Swift's global concurrent executor: handlers of one worker run in parallel on every core, each batch
        /// of requests hopping from the connection's thread to the executor's and its answers back.
        case globalConcurrent
    }

    /// Where the worker connects and how much it takes on; immutable once the worker is created.
    public struct Configuration: Sendable {
        /// nats-server URLs (`nats://host:port`, `tls://host:port`), tried in order.
        public var servers: [String]
        /// TLS trust (the CA of nats-server's certificate) and an optional client certificate.
        public var tls: NATSTLSConfiguration
        /// The queue group every worker joins, so each request is handled by exactly one of them.
        public var queueGroup: String
        /// Requests processed at once; further requests wait in the subscription's buffer (default 64).
        public var concurrency: Int
        /// The largest request body accepted; larger ones are answered `payload_too_large` (default 64 KiB).
        public var maxPayloadBytes: Int
        /// This worker's id: named in status answers, the NATS connection name and the logs.
        public var instanceID: String
        /// Requests buffered while all ``concurrency`` slots are busy; beyond it nats-client drops new ones and
        /// reports a slow consumer (default 4096).
        public var pendingLimit: Int
        /// Reconnect behaviour after losing nats-server (default: forever, 1 s doubling to at most 10 s).
        public var reconnect: NATSReconnectPolicy
        /// Keep trying when nats-server is not reachable at start instead of failing ``VaultWorker/start()``.
        public var retryOnFailedConnect: Bool
        /// Longest a stop waits for the subscription to drain and pending answers to be sent.
        public var drainTimeout: Duration
        /// Where requests are processed (default: the connection's event loop, see ``LaneExecutor``).
        public var laneExecutor: LaneExecutor

        /// The default reconnect policy: unlimited attempts, 1 s doubling to 10 s, with up to 250 ms jitter.
        public static let defaultReconnect = NATSReconnectPolicy(
            maxAttemptsPerServer: nil, wait: .seconds(1), jitter: .milliseconds(250), backoffMultiplier: 2,
            maxWait: .seconds(10))

        /// A fresh instance id: `worker-` and 8 random hex digits.
        public static func generatedInstanceID() -> String {
            "worker-\(UUID().uuidString.lowercased().prefix(8))"
        }

        public init(
            servers: [String],
            tls: NATSTLSConfiguration = NATSTLSConfiguration(),
            queueGroup: String = VaultNamespace.workerQueueGroup,
            concurrency: Int = 64,
            maxPayloadBytes: Int = 64 * 1024,
            instanceID: String = Self.generatedInstanceID(),
            pendingLimit: Int = 4096,
            reconnect: NATSReconnectPolicy = Self.defaultReconnect,
            retryOnFailedConnect: Bool = false,
            drainTimeout: Duration = .seconds(10),
            laneExecutor: LaneExecutor = .connectionEventLoop
        ) {
            self.servers = servers
            self.tls = tls
            self.queueGroup = queueGroup
            self.concurrency = concurrency
            self.maxPayloadBytes = maxPayloadBytes
            self.instanceID = instanceID
            self.pendingLimit = pendingLimit
            self.reconnect = reconnect
            self.retryOnFailedConnect = retryOnFailedConnect
            self.drainTimeout = drainTimeout
            self.laneExecutor = laneExecutor
        }
    }
}
