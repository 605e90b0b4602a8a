// The backend's vault worker: answers every member's app on OwnerSpace.*.forVault.> in a queue group.

public import Logging
import NATSClient
import NIOConcurrencyHelpers
public import ServiceLifecycle
import VettIDMessaging

/// Serves every member's vault requests from NATS.
///
/// The worker connects with credentials minted by ``Credentials`` on every (re)connect, subscribes
/// `OwnerSpace.*.forVault.>` in the ``Configuration/queueGroup`` (so each request is handled by exactly one
/// worker of the group), processes up to ``Configuration/concurrency`` requests at once with a
/// ``VaultRequestProcessor``, and publishes its answers. A slow handler takes one slot and never blocks the
/// others; malformed requests are answered with error responses. After nats-server restarts, nats-client
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
    ///   - logger: Where the worker logs (never payloads or secrets).
    public init(
        configuration: Configuration,
        credentials: @escaping Credentials,
        registry: VaultHandlerRegistry,
        status: @escaping VaultRequestProcessor.StatusLookup,
        clock: any WallClock = SystemWallClock(),
        metrics: ServerMetrics? = nil,
        logger: Logger
    ) {
        self.configuration = configuration
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
        try state.withLockedValue { state in
            guard case .idle = state.phase else {
                throw VaultWorkerError(.alreadyStarted, "a vault worker starts once")
            }
            state.phase = .starting(stopRequested: false, client: nil)
        }
        let running: Running
        do {
            let client = try makeClient()
            let stopRequested = state.withLockedValue { state -> Bool in
                guard case .starting(false, _) = state.phase else { return true }
                state.phase = .starting(stopRequested: false, client: client)
                return false
            }
            if stopRequested { throw VaultWorkerError(.stopped, "the worker was stopped while starting") }
            running = try await connect(client)
        } catch {
            let stopRequested = state.withLockedValue { state -> Bool in
                if case .starting(true, _) = state.phase { true } else { false }
            }
            let reported = stopRequested ? VaultWorkerError(.stopped, "the worker was stopped while starting") : error
            if !stopRequested { logger.error("vault worker could not start", metadata: ["error": "\(error)"]) }
            finish(readiness: .failed(reported))
            throw reported
        }
        let waiters: [CheckedContinuation<Void, any Error>]? = state.withLockedValue { state in
            guard case .starting(false, _) = state.phase else { return nil }
            state.phase = .running(running)
            state.readiness = .ready
            defer { state.readyWaiters.removeAll() }
            return Array(state.readyWaiters.values)
        }
        guard let waiters else {
            await shutDown(running)
            throw VaultWorkerError(.stopped, "the worker was stopped while starting")
        }
        for waiter in waiters { waiter.resume() }
        logger.info(
            "vault worker ready",
            metadata: ["queue_group": "\(configuration.queueGroup)", "concurrency": "\(configuration.concurrency)"])
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
                let now: Result<Void, any Error>? = state.withLockedValue { state in
                    switch state.readiness {
                    case .ready: return .success(())
                    case .failed(let error): return .failure(error)
                    case .pending:
                        if Task.isCancelled { return .failure(CancellationError()) }
                        state.readyWaiters[id] = continuation
                        return nil
                    }
                }
                if let now { continuation.resume(with: now) }
            }
        } onCancel: {
            let waiter = state.withLockedValue { $0.readyWaiters.removeValue(forKey: id) }
            waiter?.resume(throwing: CancellationError())
        }
    }

    /// Stops serving: unsubscribes (draining what nats-server already sent), waits for the requests in flight
    /// to be answered, flushes and closes. Returns once stopped; calling it again, or concurrently, waits for
    /// the same stop.
    public func stop() async {
        enum Step {
            case shutDown(Running)
            case abandon(NATSClient?)
            case wait
            case done
        }
        let step: Step = state.withLockedValue { state in
            switch state.phase {
            case .idle:
                state.phase = .stopped
                return .done
            case .starting(_, let client):
                state.phase = .starting(stopRequested: true, client: client)
                return .abandon(client)
            case .running(let running):
                state.phase = .stopping
                return .shutDown(running)
            case .stopping:
                return .wait
            case .stopped:
                return .done
            }
        }
        switch step {
        case .done:
            finish(readiness: .failed(VaultWorkerError(.stopped, "the worker was stopped")))
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
            let stopped = state.withLockedValue { state -> Bool in
                if case .stopped = state.phase { return true }
                state.stopWaiters.append(continuation)
                return false
            }
            if stopped { continuation.resume() }
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
                    guard let serving = state.withLockedValue({ $0.phase.running?.serving }) else { return }
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
        let unexpected = state.withLockedValue { $0.phase.running != nil }
        await stop()
        if unexpected {
            throw VaultWorkerError(.connectionClosed, "the NATS connection closed while the worker was serving")
        }
    }

    /// The worker's counters.
    public var statistics: Statistics {
        var statistics = counters.withLockedValue { $0 }
        if let client = state.withLockedValue({ $0.phase.running?.client }) {
            statistics.reconnects = client.statistics.reconnects
        }
        return statistics
    }

    /// Whether the worker's NATS connection is up right now.
    public var isConnected: Bool {
        state.withLockedValue { $0.phase.running?.client }?.isConnected ?? false
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
            let subscription = try client.subscribe(
                to: VaultNamespace.allForVault, queue: configuration.queueGroup, pendingLimit: configuration.pendingLimit)
            try await client.flush()
            let serving = Task { [processor, logger, counters, configuration] in
                await Self.serve(
                    subscription, client: client, processor: processor, concurrency: max(1, configuration.concurrency),
                    logger: logger, counters: counters)
            }
            return Running(client: client, subscription: subscription, serving: serving, events: events)
        } catch {
            await client.close()
            await events.value
            throw error
        }
    }

    private func shutDown(_ running: Running) async {
        do {
            try await running.subscription.drain(timeout: configuration.drainTimeout)
        } catch {
            logger.warning("draining the subscription failed; unsubscribing", metadata: ["error": "\(error)"])
            running.subscription.unsubscribe()
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
        let (stopWaiters, readyWaiters) = state.withLockedValue { state in
            state.phase = .stopped
            // From now on waiting for readiness fails (also for a worker stopped while it was starting).
            state.readiness = .failed(stopped)
            defer {
                state.stopWaiters.removeAll()
                state.readyWaiters.removeAll()
            }
            return (state.stopWaiters, Array(state.readyWaiters.values))
        }
        for waiter in readyWaiters { waiter.resume(throwing: stopped) }
        for waiter in stopWaiters { waiter.resume() }
    }

    /// Settles a pending readiness and wakes its waiters; after a failed start (or a stop before starting) the
    /// worker is stopped and stop waiters are woken too.
    private func finish(readiness: Readiness) {
        let (waiters, stopWaiters) = state.withLockedValue { state in
            if case .starting = state.phase { state.phase = .stopped }
            var stopWaiters: [CheckedContinuation<Void, Never>] = []
            if case .stopped = state.phase {
                stopWaiters = state.stopWaiters
                state.stopWaiters.removeAll()
            }
            guard case .pending = state.readiness else { return ([CheckedContinuation<Void, any Error>](), stopWaiters) }
            state.readiness = readiness
            defer { state.readyWaiters.removeAll() }
            return (Array(state.readyWaiters.values), stopWaiters)
        }
        for waiter in waiters {
            switch readiness {
            case .ready, .pending: waiter.resume()
            case .failed(let error): waiter.resume(throwing: error)
            }
        }
        for waiter in stopWaiters { waiter.resume() }
    }
}

extension VaultWorker {
    private struct Running: Sendable {
        let client: NATSClient
        let subscription: NATSSubscription
        let serving: Task<Void, Never>
        let events: Task<Void, Never>
    }

    private enum Phase {
        case idle
        case starting(stopRequested: Bool, client: NATSClient?)
        case running(Running)
        case stopping
        case stopped

        var running: Running? {
            if case .running(let running) = self { running } else { nil }
        }
    }

    private enum Readiness {
        case pending
        case ready
        case failed(any Error)
    }

    private struct State {
        var phase = Phase.idle
        var readiness = Readiness.pending
        var readyWaiters: [Int: CheckedContinuation<Void, any Error>] = [:]
        var nextWaiterID = 0
        var stopWaiters: [CheckedContinuation<Void, Never>] = []
    }
}
