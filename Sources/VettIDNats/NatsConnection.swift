// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import Logging
public import NATSClient
import NIOConcurrencyHelpers
import NIOCore
import VettIDClient
public import VettIDMessaging

/// The live NATS connection of a ``NatsConnectionManager``: publish, request and subscribe from any task, through
/// whichever `NATSClient` currently holds the member's token. ``OwnerSpaceClient`` and ``MessageSpaceClient`` are
/// built on it.
///
/// Publishes and requests go out on exactly one client: the current one. Managed subscriptions
/// (``subscribe(to:queue:)``) exist on every live client, so a make-before-break swap moves them without a gap:
///
/// 1. connect a new client with the new token (`inboxPrefix` = the member's `forApp.inbox`);
/// 2. subscribe every managed subscription on it and flush (nats-server has registered them);
/// 3. make it current (later publishes and requests use it);
/// 4. wait for requests still running on the old client (at most ``NatsConnectionManager/Configuration/drainTimeout``),
///    drain the old client (messages nats-server already sent it are delivered), close it.
///
/// Between 2 and 4 a message may arrive on both clients; each managed subscription drops the second copy
/// (``NatsMessageDeduplicator``).
public final class NatsConnection: Sendable {
    struct ClientEntry {
        let client: NATSClient
        let credentials: NatsCredentials
        var inflight = 0
        var live = true
        /// Retirements waiting for `inflight` to reach zero, by waiter id.
        var idleWaiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
    }

    struct Managed {
        let subject: String
        let queue: String?
        let continuation: AsyncStream<NATSMessage>.Continuation
        var deduplicator: NatsMessageDeduplicator
        var subscriptions: [UInt64: NATSSubscription] = [:]
        var dropped = 0
    }

    struct State {
        var clients: [UInt64: ClientEntry] = [:]
        var current: UInt64?
        var nextGeneration: UInt64 = 0
        var managed: [UInt64: Managed] = [:]
        var nextManagedID: UInt64 = 0
        var nextWaiterID: UInt64 = 0
    }

    /// How an installed client treats the one it replaces.
    enum Retirement {
        /// Wait for its requests, drain, close (a swap: it still works).
        case drain
        /// Close at once (it was cut off).
        case close
    }

    let configuration: NatsConnectionManager.Configuration
    /// Every client's lifecycle events, named by the token id of its credentials (one consumer: the manager).
    let events: AsyncStream<(tokenID: String, event: NATSEvent)>
    private let eventContinuation: AsyncStream<(tokenID: String, event: NATSEvent)>.Continuation
    private let logger: Logger
    // All mutable state is in this box; nothing awaits while it is locked.
    private let box = NIOLockedValueBox(State())

    init(configuration: NatsConnectionManager.Configuration) {
        self.configuration = configuration
        self.logger = configuration.logger
        (events, eventContinuation) = AsyncStream.makeStream(of: (tokenID: String, event: NATSEvent).self)
    }

    deinit {
        eventContinuation.finish()
    }

    // MARK: Public API

    /// The namespace of the current credentials, if connected.
    public var namespace: VaultNamespace? {
        withLock { state in state.current.flatMap { state.clients[$0]?.credentials.namespace } }
    }

    /// Whether the current client is connected right now.
    public var isConnected: Bool {
        withLock { state in state.current.flatMap { state.clients[$0]?.client } }?.isConnected ?? false
    }

    /// Publishes `payload` to `subject` on the current client.
    /// - Throws: ``NatsConnectionError`` `not_connected`, `publish_failed`.
    public func publish(_ payload: [UInt8], to subject: String, replyTo: String? = nil, headers: NATSHeaders? = nil)
        throws(NatsConnectionError)
    {
        let client = try currentClient()
        do {
            try client.publish(payload, to: subject, replyTo: replyTo, headers: headers)
        } catch {
            throw NatsConnectionError(
                .publishFailed, "The message to \(subject) was not accepted (\(error.code)).", underlying: error)
        }
    }

    /// Sends a request on the current client and waits for the first reply (in the member's `forApp.inbox`).
    /// A swap waits for it before closing the client it went out on.
    /// - Throws: ``NatsConnectionError`` `not_connected`, `timeout`, `no_responders`, `publish_failed`.
    public func request(
        _ payload: [UInt8],
        to subject: String,
        headers: NATSHeaders? = nil,
        timeout: Duration? = nil
    ) async throws(NatsConnectionError) -> NATSMessage {
        let (generation, client): (UInt64, NATSClient) = try withLock {
            (state: inout State) throws(NatsConnectionError) -> (UInt64, NATSClient) in
            guard let generation = state.current, let entry = state.clients[generation] else {
                throw NatsConnectionError(.notConnected, "There is no NATS connection.")
            }
            state.clients[generation]?.inflight += 1
            return (generation, entry.client)
        }
        defer { requestEnded(on: generation) }
        do {
            return try await client.request(
                ByteBuffer(bytes: payload), to: subject, headers: headers,
                timeout: timeout ?? configuration.requestTimeout)
        } catch NATSError.Code.timeout {
            throw NatsConnectionError(.timeout, "No answer on \(subject) in time.")
        } catch NATSError.Code.noResponders {
            throw NatsConnectionError(.noResponders, "Nobody answers on \(subject).")
        } catch {
            throw NatsConnectionError(.publishFailed, "The request to \(subject) failed.", underlying: error)
        }
    }

    /// Subscribes to `subject` on every live connection, now and after swaps and re-authentication.
    /// - Throws: ``NatsConnectionError`` `subscribe_failed` for an invalid subject or queue.
    public func subscribe(to subject: String, queue: String? = nil) throws(NatsConnectionError)
        -> NatsManagedSubscription
    {
        let (stream, continuation) = AsyncStream.makeStream(
            of: NATSMessage.self, bufferingPolicy: .bufferingOldest(max(1, configuration.subscriptionPendingLimit)))
        let id: UInt64 = try withLock { (state: inout State) throws(NatsConnectionError) -> UInt64 in
            state.nextManagedID += 1
            let id = state.nextManagedID
            var managed = Managed(
                subject: subject, queue: queue, continuation: continuation,
                deduplicator: NatsMessageDeduplicator(capacity: configuration.deduplicationWindow))
            for (generation, entry) in state.clients where entry.live {
                do {
                    managed.subscriptions[generation] = try entry.client.subscribe(to: subject, queue: queue)
                } catch {
                    for subscription in managed.subscriptions.values { subscription.unsubscribe() }
                    throw NatsConnectionError(
                        .subscribeFailed,
                        "Cannot subscribe to \(subject) (\((error as? NATSError)?.code.rawValue ?? "error")).",
                        underlying: error)
                }
            }
            state.managed[id] = managed
            for (generation, subscription) in managed.subscriptions {
                startPump(subscription, managedID: id, generation: generation)
            }
            return id
        }
        continuation.onTermination = { [weak self] _ in self?.removeSubscription(id) }
        return NatsManagedSubscription(subject: subject, queue: queue, id: id, stream: stream, connection: self)
    }

    /// Waits until the current client's server has processed everything published so far.
    public func flush(timeout: Duration = .seconds(10)) async throws(NatsConnectionError) {
        let client = try currentClient()
        do {
            try await client.flush(timeout: timeout)
        } catch {
            throw NatsConnectionError(.timeout, "The flush did not complete.", underlying: error)
        }
    }

    // MARK: Used by the manager

    /// Connects a client with `credentials`, subscribes every managed subscription on it, flushes, and makes it
    /// current; the previous current client is retired as `retirement` says.
    func install(_ credentials: NatsCredentials, retiring retirement: Retirement) async throws(NatsConnectionError) {
        let client = try Self.makeClient(credentials, configuration: configuration)
        let events = client.makeEventStream()
        let continuation = eventContinuation
        let tokenID = credentials.tokenID
        Task {
            for await event in events { continuation.yield((tokenID, event)) }
        }
        do {
            try await client.connect()
        } catch {
            await client.close()
            throw NatsConnectionError(.connectFailed, "Cannot connect to \(credentials.endpoint).", underlying: error)
        }
        let generation: UInt64 = withLock { state in
            state.nextGeneration += 1
            let generation = state.nextGeneration
            state.clients[generation] = ClientEntry(client: client, credentials: credentials)
            for (id, managed) in state.managed {
                do {
                    let subscription = try client.subscribe(to: managed.subject, queue: managed.queue)
                    state.managed[id]?.subscriptions[generation] = subscription
                    startPump(subscription, managedID: id, generation: generation)
                } catch {
                    logger.error(
                        "NATS: a subscription could not be re-created", metadata: ["nats.subject": "\(managed.subject)"]
                    )
                }
            }
            return generation
        }
        do {
            try await client.flush(timeout: configuration.connectTimeout)
        } catch {
            discard(generation)
            await client.close()
            throw NatsConnectionError(
                .connectFailed, "The new connection did not confirm its subscriptions.", underlying: error)
        }
        let previous: UInt64? = withLock { state in
            let previous = state.current
            state.current = generation
            if let previous { state.clients[previous]?.live = false }
            return previous
        }
        logger.info(
            "NATS: connection in use",
            metadata: [
                "nats.token_id": "\(credentials.tokenID)", "nats.expires_at": "\(credentials.expiresAt)",
                "nats.subscriptions": "\(withLock { state in state.managed.count })",
            ]
        )
        guard let previous else { return }
        switch retirement {
        case .close:
            await retire(previous, drain: false)
        case .drain:
            Task { await self.retire(previous, drain: true) }
        }
    }

    /// Closes the current client; managed subscriptions stay and move to the next installed client.
    func drop() async {
        let dropped: UInt64? = withLock { state in
            let current = state.current
            state.current = nil
            if let current { state.clients[current]?.live = false }
            return current
        }
        if let dropped { await retire(dropped, drain: false) }
    }

    /// Closes every client and ends every managed subscription.
    func close() async {
        let (clients, continuations, waiters) = withLock {
            (state: inout State) -> (
                [NATSClient], [AsyncStream<NATSMessage>.Continuation], [CheckedContinuation<Void, Never>]
            ) in
            let clients = state.clients.values.map(\.client)
            let continuations = state.managed.values.map(\.continuation)
            let waiters = state.clients.values.flatMap(\.idleWaiters.values)
            state.clients.removeAll()
            state.managed.removeAll()
            state.current = nil
            return (clients, continuations, waiters)
        }
        for waiter in waiters { waiter.resume() }
        for continuation in continuations { continuation.finish() }
        for client in clients { await client.close() }
    }

    /// The token id of the current client.
    var currentTokenID: String? {
        withLock { state in state.current.flatMap { state.clients[$0]?.credentials.tokenID } }
    }

    /// How many clients are open (the current one, and one being retired during a swap).
    var openClientCount: Int { withLock { state in state.clients.count } }

    func removeSubscription(_ id: UInt64) {
        let removed = withLock { state in state.managed.removeValue(forKey: id) }
        guard let removed else { return }
        for subscription in removed.subscriptions.values { subscription.unsubscribe() }
        removed.continuation.finish()
    }

    func droppedMessages(_ id: UInt64) -> Int {
        withLock { state in state.managed[id]?.dropped ?? 0 }
    }

    // MARK: Internals

    /// A client for `credentials` as the manager's connections make it (also the notification extension's
    /// ``MailboxNotificationFetcher``).
    static func makeClient(
        _ credentials: NatsCredentials, configuration: NatsConnectionManager.Configuration
    ) throws(NatsConnectionError) -> NATSClient {
        let clientConfiguration = NATSClient.Configuration(
            servers: [credentials.endpoint],
            name: configuration.name,
            auth: .jwt(credentials.jwt, seed: credentials.seed),
            connectTimeout: configuration.connectTimeout,
            requestTimeout: configuration.requestTimeout,
            inboxPrefix: credentials.namespace.appInboxPrefix,
            reconnect: configuration.reconnect,
            subscriptionPendingLimit: configuration.subscriptionPendingLimit,
            tls: configuration.tls,
            logger: configuration.logger,
            transport: configuration.transport,
            drainTimeout: configuration.drainTimeout
        )
        do {
            return try NATSClient(configuration: clientConfiguration)
        } catch {
            throw NatsConnectionError(
                .connectFailed, "The NATS endpoint '\(credentials.endpoint)' is not usable (\(error.code)).",
                underlying: error)
        }
    }

    /// JetStream over the current connection (its replies on the app's inbox, as every request's).
    /// - Throws: ``NatsConnectionError`` `notConnected`.
    public func jetStream() throws(NatsConnectionError) -> JetStreamContext {
        try currentClient().jetStream()
    }

    private func currentClient() throws(NatsConnectionError) -> NATSClient {
        guard let client = withLock({ state in state.current.flatMap { state.clients[$0]?.client } }) else {
            throw NatsConnectionError(.notConnected, "There is no NATS connection.")
        }
        return client
    }

    /// Must be called with the lock held.
    private func startPump(_ subscription: NATSSubscription, managedID: UInt64, generation: UInt64) {
        Task { [weak self] in
            for await message in subscription {
                guard let self else { return }
                self.deliver(message, to: managedID)
            }
        }
    }

    private func deliver(_ message: NATSMessage, to id: UInt64) {
        // The identity may decode JSON: work it out before taking the lock.
        let key = NatsMessageDeduplicator.identity(of: message)
        withLock { state in
            if let key {
                guard let duplicate = state.managed[id]?.deduplicator.isDuplicate(key: key), !duplicate else { return }
            }
            guard let continuation = state.managed[id]?.continuation else { return }
            if case .dropped = continuation.yield(message) { state.managed[id]?.dropped += 1 }
        }
    }

    private func retire(_ generation: UInt64, drain: Bool) async {
        guard let client = withLock({ state in state.clients[generation]?.client }) else { return }
        if drain {
            let clock = ContinuousClock()
            let deadline = clock.now + configuration.drainTimeout
            await waitForRequests(on: generation, until: deadline)
            do {
                try await client.drain(timeout: max(.milliseconds(100), deadline - clock.now))
            } catch {
                await client.close()
            }
        } else {
            await client.close()
        }
        discard(generation)
    }

    /// A request on `generation` ended; a retirement waiting for its last request resumes.
    private func requestEnded(on generation: UInt64) {
        let waiters: [CheckedContinuation<Void, Never>] = withLock { state in
            guard state.clients[generation] != nil else { return [] }
            state.clients[generation]!.inflight -= 1
            guard state.clients[generation]!.inflight == 0 else { return [] }
            defer { state.clients[generation]!.idleWaiters.removeAll() }
            return Array(state.clients[generation]!.idleWaiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns when no request is running on `generation` any more, or at `deadline`, whichever comes first.
    private func waitForRequests(on generation: UInt64, until deadline: ContinuousClock.Instant) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.idle(generation) }
            group.addTask { try? await Task.sleep(until: deadline, clock: .continuous) }
            await group.next()
            group.cancelAll()
        }
    }

    /// Suspends until `generation` has no request running (at once if it has none, or is gone); cancellation
    /// ends the wait.
    private func idle(_ generation: UInt64) async {
        let id: UInt64 = withLock { state in
            state.nextWaiterID += 1
            return state.nextWaiterID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let waits: Bool = withLock { state in
                    guard !Task.isCancelled, let entry = state.clients[generation], entry.inflight > 0 else {
                        return false
                    }
                    state.clients[generation]!.idleWaiters[id] = continuation
                    return true
                }
                if !waits { continuation.resume() }
            }
        } onCancel: {
            let waiter = withLock { state in state.clients[generation]?.idleWaiters.removeValue(forKey: id) }
            waiter?.resume()
        }
    }

    private func discard(_ generation: UInt64) {
        let removed: ClientEntry? = withLock { state in
            let removed = state.clients.removeValue(forKey: generation)
            if state.current == generation { state.current = nil }
            for id in state.managed.keys { state.managed[id]?.subscriptions.removeValue(forKey: generation) }
            return removed
        }
        for waiter in removed.map({ Array($0.idleWaiters.values) }) ?? [] { waiter.resume() }
    }

    private func withLock<T, E: Error>(_ body: (inout State) throws(E) -> T) throws(E) -> T {
        let result: Result<T, E> = box.withLockedValue { state in
            do throws(E) {
                return .success(try body(&state))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}
