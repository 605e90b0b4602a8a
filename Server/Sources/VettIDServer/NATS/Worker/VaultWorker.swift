// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// The backend's vault worker: answers every member's app on OwnerSpace.*.forVault.> in a queue group.

public import Logging
import NATSClient
import NIOConcurrencyHelpers
public import ServiceLifecycle
public import VettIDCore
import VettIDMessaging
import VettIDSession

/// Serves every member's vault requests from NATS.
///
/// The worker connects with credentials minted by ``Credentials`` on every (re)connect, subscribes
/// `OwnerSpace.*.forVault.*` in the ``Configuration/queueGroup`` (so each request is handled by exactly one
/// worker of the group; with ``sessions``, `forVault.session` inits are answered there too) and, with
/// ``sessions``, `OwnerSpace.*.forVault.sealed.{route}` in the queue group `vault-workers-{route}` of its process's
/// route (so any worker of the process answers its sessions' envelopes, and no other process sees them); it processes up to ``Configuration/concurrency`` requests at once with a
/// ``VaultRequestProcessor``, and publishes its answers. A handler that awaits something slow takes one slot and
/// never blocks the others; the lanes run on the connection's event loop unless
/// ``Configuration/laneExecutor`` says otherwise (see ``LaneExecutor`` for handlers that block or compute long).
/// Malformed requests are answered with error responses. After nats-server restarts, nats-client
/// reconnects and restores the subscription, and the worker keeps serving.
///
/// As a ServiceLifecycle `Service`, ``run()`` starts the worker and stops it on graceful shutdown or
/// cancellation. Tests and tools use ``start()``, ``waitUntilReady()`` and ``stop()``:
/// ```swift
/// let worker = VaultWorker(configuration: .init(servers: [url]), credentials: mint, registry: registry,
///                          status: lookup, logger: logger)
/// try await worker.start()          // connected, subscribed and flushed
/// …
/// await worker.stop()               // drains: in-flight requests are answered first
/// ```
public final class VaultWorker: Service, Sendable {
    /// Mints the worker's NATS user: a JWT with `NatsPermissionSet.worker` for a fresh user NKey, and that
    /// NKey's seed. Called on every connect and reconnect; the seed is secret and never logged.
    public typealias Credentials = @Sendable () throws -> (jwt: String, seed: String)

    /// The configuration the worker was created with.
    public let configuration: Configuration
    /// The request logic.
    public let processor: VaultRequestProcessor
    /// The sealed sessions of this worker's process (shared by all its workers), or `nil` to serve only the
    /// plaintext requests.
    public let sessions: VaultSessionService?
    private let signer: NATSCredentialSigner
    private let logger: Logger
    private let state = NIOLockedValueBox(State())
    private let counters = NIOLockedValueBox(Statistics())

    /// Creates a worker; nothing connects until ``start()`` or ``run()``.
    ///
    /// - Parameters:
    ///   - configuration: Servers, TLS, queue group, limits and the instance id.
    ///   - credentials: Mints the worker's NATS credentials for each connect.
    ///   - registry: The handlers `execute` requests may name.
    ///   - status: Looks up a member's vault status for `status` requests.
    ///   - clock: The clock of response timestamps.
    ///   - metrics: Where requests and their outcomes are counted; `nil` counts nothing.
    ///   - sessions: The sealed sessions of the process, shared by its workers; `nil` serves plaintext requests only.
    ///     The credentials must then allow the route's subject and queue group (`NatsPermissionSet.worker(sealedRoute:)`).
    ///   - logger: Where the worker logs (never payloads or secrets).
    public init(
        configuration: Configuration,
        credentials: @escaping Credentials,
        registry: VaultHandlerRegistry,
        status: @escaping VaultRequestProcessor.StatusLookup,
        clock: any WallClock = SystemWallClock(),
        metrics: ServerMetrics? = nil,
        sessions: VaultSessionService? = nil,
        logger: Logger
    ) {
        self.configuration = configuration
        self.sessions = sessions
        self.processor = VaultRequestProcessor(
            configuration: .init(maxPayloadBytes: configuration.maxPayloadBytes, workerID: configuration.instanceID),
            registry: registry, status: status, clock: clock, metrics: metrics)
        self.signer = NATSCredentialSigner(credentials)
        var logger = logger
        logger[metadataKey: "worker"] = "\(configuration.instanceID)"
        self.logger = logger
    }

    // MARK: Lifecycle

    /// Connects, subscribes in the queue group and flushes; returns once the worker is ready to serve.
    ///
    /// With ``Configuration/retryOnFailedConnect`` this waits until nats-server is reachable; ``stop()``
    /// meanwhile abandons the attempt.
    ///
    /// - Throws: ``VaultWorkerError`` `already_started` on a second call, `stopped` when ``stop()`` was called
    ///   meanwhile; a `NATSError` when the connection or subscription fails.
    public func start() async throws {
        try state.withLockedValue { try $0.lifecycle.startRequested() }
        let running: Running
        do {
            let client = try makeClient()
            guard state.withLockedValue({ $0.lifecycle.clientCreated(client) }) else {
                throw VaultWorkerError(.stopped, "the worker was stopped while starting")
            }
            running = try await connect(client)
        } catch {
            let (reported, readyWaiters, stopWaiters) = state.withLockedValue { $0.lifecycle.startFailed(error) }
            if (reported as? VaultWorkerError)?.code != .stopped {
                logger.error("vault worker could not start", metadata: ["error": "\(error)"])
            }
            for waiter in readyWaiters { waiter.resume(throwing: reported) }
            for waiter in stopWaiters { waiter.resume() }
            throw reported
        }
        switch state.withLockedValue({ $0.lifecycle.started(running) }) {
        case .ready(let waiters):
            for waiter in waiters { waiter.resume() }
            logger.info(
                "vault worker ready",
                metadata: ["queue_group": "\(configuration.queueGroup)", "concurrency": "\(configuration.concurrency)"])
        case .stopRequested:
            await shutDown(running)
            throw VaultWorkerError(.stopped, "the worker was stopped while starting")
        }
    }

    /// Suspends until the worker is subscribed and flushed (returns at once if it already is).
    ///
    /// - Throws: The error that made ``start()`` fail, ``VaultWorkerError`` `stopped` when the worker was
    ///   stopped first, or `CancellationError`.
    public func waitUntilReady() async throws {
        let id = state.withLockedValue { state in
            state.nextWaiterID += 1
            return state.nextWaiterID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let outcome = state.withLockedValue {
                    $0.lifecycle.waitForReadiness(id: id, waiter: continuation, isCancelled: Task.isCancelled)
                }
                switch outcome {
                case .ready: continuation.resume()
                case .failed(let error): continuation.resume(throwing: error)
                case .waiting: break
                }
            }
        } onCancel: {
            let waiter = state.withLockedValue { $0.lifecycle.cancelReadinessWait(id: id) }
            waiter?.resume(throwing: CancellationError())
        }
    }

    /// Stops serving: unsubscribes (draining what nats-server already sent), waits for the requests in flight
    /// to be answered, flushes and closes. Returns once stopped; calling it again, or concurrently, waits for
    /// the same stop.
    public func stop() async {
        switch state.withLockedValue({ $0.lifecycle.stopRequested() }) {
        case .stoppedAlready(let readyWaiters, let stopWaiters):
            let stopped = VaultWorkerError(.stopped, "the worker was stopped")
            for waiter in readyWaiters { waiter.resume(throwing: stopped) }
            for waiter in stopWaiters { waiter.resume() }
        case .shutDown(let running):
            await shutDown(running)
        case .abandon(let client):
            // Fails a connect still in progress (or retrying); start() then finishes the stop.
            await client?.close()
            await waitUntilStopped()
        case .wait:
            await waitUntilStopped()
        }
    }

    private func waitUntilStopped() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            if !state.withLockedValue({ $0.lifecycle.waitForStop(continuation) }) { continuation.resume() }
        }
    }

    /// Starts the worker and serves until graceful shutdown or cancellation, then stops it. A shutdown or
    /// cancellation while the worker is still connecting abandons the connect and returns normally.
    ///
    /// - Throws: What ``start()`` throws (except `stopped`); ``VaultWorkerError`` `connection_closed` when the
    ///   NATS connection closed for good while serving (the service group then shuts down or restarts it).
    public func run() async throws {
        do {
            try await withTaskCancellationHandler {
                try await withGracefulShutdownHandler {
                    try await start()
                    guard let serving = state.withLockedValue({ $0.lifecycle.running?.serving }) else { return }
                    await serving.value
                } onGracefulShutdown: {
                    Task { await self.stop() }
                }
            } onCancel: {
                Task { await self.stop() }
            }
        } catch let error as VaultWorkerError where error.code == .stopped {
            return
        }
        let unexpected = state.withLockedValue { $0.lifecycle.running != nil }
        await stop()
        if unexpected {
            throw VaultWorkerError(.connectionClosed, "the NATS connection closed while the worker was serving")
        }
    }

    /// The worker's counters.
    public var statistics: Statistics {
        var statistics = counters.withLockedValue { $0 }
        if let client = state.withLockedValue({ $0.lifecycle.running?.client }) {
            statistics.reconnects = client.statistics.reconnects
        }
        return statistics
    }

    /// Whether the worker's NATS connection is up right now.
    public var isConnected: Bool {
        state.withLockedValue { $0.lifecycle.running?.client }?.isConnected ?? false
    }

    // MARK: Connection

    private func makeClient() throws(NATSError) -> NATSClient {
        try NATSClient(
            configuration: NATSClient.Configuration(
                servers: configuration.servers,
                name: "vault-worker \(configuration.instanceID)",
                auth: signer.auth,
                reconnect: configuration.reconnect,
                retryOnFailedConnect: configuration.retryOnFailedConnect,
                subscriptionPendingLimit: configuration.pendingLimit,
                tls: configuration.tls,
                logger: logger,
                drainTimeout: configuration.drainTimeout))
    }

    private func connect(_ client: NATSClient) async throws -> Running {
        let events = Task { [logger, counters] in
            await Self.watch(client.events, logger: logger, counters: counters)
        }
        do {
            try await client.connect()
            var subscriptions = [
                try client.subscribe(
                    to: VaultNamespace.allSingleTokenForVault, queue: configuration.queueGroup,
                    pendingLimit: configuration.pendingLimit)
            ]
            if let route = sessions?.route.subjectToken {
                subscriptions.append(
                    try client.subscribe(
                        to: VaultNamespace.allSealed(route: route),
                        queue: VaultNamespace.sealedQueueGroup(route: route),
                        pendingLimit: configuration.pendingLimit))
            }
            try await client.flush()
            let subscribed = subscriptions
            // The lanes are the serving task's children and share its executor preference.
            let lanes: (any TaskExecutor)? =
                configuration.laneExecutor == .connectionEventLoop ? client.taskExecutor : nil
            let serving = Task(executorPreference: lanes) { [processor, sessions, logger, counters, configuration] in
                await withDiscardingTaskGroup { group in
                    for subscription in subscribed {
                        group.addTask {
                            await Self.serve(
                                subscription, client: client, processor: processor, sessions: sessions,
                                concurrency: max(1, configuration.concurrency), logger: logger, counters: counters)
                        }
                    }
                }
            }
            return Running(client: client, subscriptions: subscribed, serving: serving, events: events)
        } catch {
            await client.close()
            await events.value
            throw error
        }
    }

    private func shutDown(_ running: Running) async {
        for subscription in running.subscriptions {
            do {
                try await subscription.drain(timeout: configuration.drainTimeout)
            } catch {
                logger.warning("draining the subscription failed; unsubscribing", metadata: ["error": "\(error)"])
                subscription.unsubscribe()
            }
        }
        await running.serving.value
        do {
            try await running.client.drain(timeout: configuration.drainTimeout)
        } catch {
            logger.warning("draining the NATS connection failed", metadata: ["error": "\(error)"])
        }
        await running.client.close()
        await running.events.value
        let final = counters.withLockedValue { $0 }
        logger.info(
            "vault worker stopped",
            metadata: ["answered": "\(final.answered)", "errors": "\(final.errors)", "ignored": "\(final.ignored)"])
        let stopped = VaultWorkerError(.stopped, "the worker was stopped")
        let (readyWaiters, stopWaiters) = state.withLockedValue { $0.lifecycle.stopped() }
        for waiter in readyWaiters { waiter.resume(throwing: stopped) }
        for waiter in stopWaiters { waiter.resume() }
    }
}

extension VaultWorker {
    private struct Running: Sendable {
        let client: NATSClient
        let subscriptions: [NATSSubscription]
        let serving: Task<Void, Never>
        let events: Task<Void, Never>
    }

    private typealias Lifecycle = VaultWorkerLifecycle<
        NATSClient, Running, CheckedContinuation<Void, any Error>, CheckedContinuation<Void, Never>
    >

    private struct State {
        var lifecycle = Lifecycle(
            stoppedError: VaultWorkerError(.stopped, "the worker was stopped"),
            alreadyStartedError: VaultWorkerError(.alreadyStarted, "a vault worker starts once"))
        var nextWaiterID = 0
    }
}
