// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// Shared state of one client behind one lock: the connection state machine, the outbound buffer, the
// subscription registry, the request multiplexer and the waiters of flushes, sends and lifecycle calls.
// Event-loop callbacks and user calls both go through here; the decisions live in the pure types
// (NATSConnectionStateMachine, NATSSubscriptionRegistry, NATSRequestMultiplexer, NATSOutboundBuffer), and
// what they return is carried out after the lock is released. The extensions hold the channel events, the
// state machine's actions, publishing, subscriptions and requests.

import Logging
import NIOConcurrencyHelpers
import NIOCore

@usableFromInline
final class NATSConnectionCore: Sendable {
    struct PendingRequest {
        let waiter: NATSReplyWaiter
        /// When the request times out, and the timeout it was given (for the error).
        let deadline: NIODeadline
        let timeout: Duration
    }

    /// A ``NATSClient/send(_:to:replyTo:headers:)`` waiting for room in the outbound buffer.
    struct PendingSend {
        let id: UInt64
        let frame: NATSPublishFrame
        let promise: EventLoopPromise<Void>
    }

    struct State {
        var machine: NATSConnectionStateMachine
        var channel: (any Channel)?
        var outbound = NATSOutboundBuffer()
        var flushScheduled = false
        var pongWaiters = CircularBuffer<(id: UInt64, promise: EventLoopPromise<Void>?)>()
        var sendWaiters = CircularBuffer<PendingSend>()
        var nextWaiterID: UInt64 = 0
        var subscriptions = NATSSubscriptionRegistry()
        var requests = NATSRequestMultiplexer<PendingRequest>()
        /// The one timer that fails expired requests, set for the earliest deadline it knows of.
        var requestTimer: (deadline: NIODeadline, task: Scheduled<Void>)?
        var statistics = NATSStatistics()
        var maxPayload = 1_048_576
        var serverHeaders = true
        var connectPromise: EventLoopPromise<Void>?
        var closeWaiters: [EventLoopPromise<Void>] = []
        var pingTask: RepeatedTask?
        var handshakeTimeout: Scheduled<Void>?
        var finished = false
        var closeReason: NATSError?
        var runWaiters: [EventLoopPromise<NATSError?>] = []
        var queuesToWake: [any NATSMessageSink] = []

        /// Connected with a channel to write to.
        var canWrite: Bool { machine.isConnected && channel != nil }
        /// Closed or closing for good: nothing new is accepted.
        var isShutDown: Bool { finished || machine.isClosed }

        mutating func makeWaiterID() -> UInt64 {
            nextWaiterID += 1
            return nextWaiterID
        }
    }

    let configuration: NATSClient.Configuration
    let eventLoop: any EventLoop
    let state: NIOLockedValueBox<State>
    let events: NATSEventBroadcaster
    let bootstrap: NATSConnectionBootstrap
    let logger: Logger

    init(
        configuration: NATSClient.Configuration,
        servers: [NATSServerAddress],
        eventLoop: any EventLoop,
        usesTransportServices: Bool,
        events: NATSEventBroadcaster
    ) {
        self.configuration = configuration
        self.eventLoop = eventLoop
        self.events = events
        self.bootstrap = NATSConnectionBootstrap(
            configuration: configuration, usesTransportServices: usesTransportServices)
        self.logger = configuration.logger
        var machineConfiguration = NATSConnectionStateMachine.Configuration()
        machineConfiguration.requireTLS = configuration.requireTLS
        machineConfiguration.maxPingsOut = configuration.maxPingsOut
        machineConfiguration.reconnect = configuration.reconnect
        machineConfiguration.retryOnFailedConnect = configuration.retryOnFailedConnect
        let machine = NATSConnectionStateMachine(
            servers: servers,
            configuration: machineConfiguration,
            jitter: { Double.random(in: 0..<1) }
        )
        self.state = NIOLockedValueBox(State(machine: machine))
    }

    // MARK: - Lifecycle

    func connect() async throws {
        let promise = eventLoop.makePromise(of: Void.self)
        let action: NATSConnectionStateMachine.Action = state.withLockedValue { state in
            state.connectPromise = promise
            return state.machine.start()
        }
        eventLoop.execute { self.perform([action], channel: nil) }
        do {
            try await promise.futureResult.get()
        } catch let error as NATSError {
            throw error
        } catch {
            throw NATSError(.noServers, "\(error)")
        }
    }

    func close() async {
        let promise = eventLoop.makePromise(of: Void.self)
        startClose(waiter: promise)
        try? await promise.futureResult.get()
    }

    /// Starts closing without waiting; `waiter` succeeds once the client is closed.
    func startClose(waiter: EventLoopPromise<Void>?) {
        let (actions, channel, alreadyFinished): ([NATSConnectionStateMachine.Action], (any Channel)?, Bool) =
            state.withLockedValue { state in
                if state.finished { return ([], nil, true) }
                if let waiter { state.closeWaiters.append(waiter) }
                return (state.machine.close(), state.channel, false)
            }
        if alreadyFinished {
            waiter?.succeed()
            return
        }
        if actions.isEmpty, state.withLockedValue({ $0.finished }) { waiter?.succeed() }
        eventLoop.execute { self.perform(actions, channel: channel) }
    }

    /// Whether ``connect()`` was called (successfully or not).
    var hasStarted: Bool { state.withLockedValue { $0.machine.state != .idle } }

    /// Suspends until the client has closed; returns the error that closed it, if any.
    func waitUntilClosed() async -> NATSError? {
        let promise = eventLoop.makePromise(of: NATSError?.self)
        let closed: NATSError?? = state.withLockedValue { state in
            if state.finished { return .some(state.closeReason) }
            state.runWaiters.append(promise)
            return .none
        }
        if let closed {
            promise.succeed(closed)
        }
        return (try? await promise.futureResult.get()) ?? nil
    }

    /// Ends the client for good: every waiter fails or succeeds, every subscription's sequence ends.
    func finish(error: NATSError?) {
        struct Ended {
            var sinks: [any NATSMessageSink] = []
            var requests: [PendingRequest] = []
            var pongWaiters: [EventLoopPromise<Void>] = []
            var sends: [EventLoopPromise<Void>] = []
            var connectPromise: EventLoopPromise<Void>?
            var closeWaiters: [EventLoopPromise<Void>] = []
            var runWaiters: [EventLoopPromise<NATSError?>] = []
            var channel: (any Channel)?
        }
        let ended: Ended = state.withLockedValue { state in
            state.finished = true
            state.closeReason = error
            state.outbound.removeAll()
            state.pingTask?.cancel()
            state.pingTask = nil
            state.requestTimer?.task.cancel()
            state.requestTimer = nil
            var ended = Ended()
            ended.sinks = state.subscriptions.removeAll()
            ended.requests = state.requests.removeAll()
            ended.pongWaiters = state.pongWaiters.compactMap(\.promise)
            state.pongWaiters.removeAll()
            ended.sends = state.sendWaiters.map(\.promise)
            state.sendWaiters.removeAll()
            swap(&ended.connectPromise, &state.connectPromise)
            swap(&ended.closeWaiters, &state.closeWaiters)
            swap(&ended.runWaiters, &state.runWaiters)
            swap(&ended.channel, &state.channel)
            return ended
        }
        ended.channel?.close(promise: nil)
        let closed = error ?? NATSError(.connectionClosed, "connection closed")
        for sink in ended.sinks { sink.finish() }
        for request in ended.requests { request.waiter.fail(closed) }
        for waiter in ended.pongWaiters { waiter.fail(closed) }
        for waiter in ended.sends { waiter.fail(closed) }
        ended.connectPromise?.fail(closed)
        for waiter in ended.closeWaiters { waiter.succeed() }
        logger.info("closed", metadata: ["reason": "\(error.map { "\($0)" } ?? "requested")"])
        events.yield(.closed(error))
        events.finish()
        for waiter in ended.runWaiters { waiter.succeed(error) }
    }

    // MARK: - Introspection

    var statistics: NATSStatistics { state.withLockedValue { $0.statistics } }
    var maxPayload: Int { state.withLockedValue { $0.maxPayload } }
    var isConnected: Bool { state.withLockedValue { $0.machine.isConnected } }
    var connectedServerInfo: NATSServerInfo? { state.withLockedValue { $0.machine.serverInfo } }
    var knownServers: [String] { state.withLockedValue { $0.machine.pool.addresses.map(\.description) } }
    /// Sends waiting for room in the outbound buffer (for tests).
    var waitingSends: Int { state.withLockedValue { $0.sendWaiters.count } }
    /// Bytes queued and not yet handed to the channel (for tests).
    var pendingOutboundBytes: Int { state.withLockedValue { $0.outbound.pendingBytes } }
    /// Bytes queued or handed to the channel and not yet written to the socket (for tests).
    var unwrittenOutboundBytes: Int {
        state.withLockedValue { $0.outbound.unwrittenBytes }
    }
    /// Publishes are queued and the channel takes no more until the socket drains (for tests).
    var outboundIsBackedUp: Bool {
        state.withLockedValue { state in
            guard let channel = state.channel else { return false }
            return !state.outbound.isEmpty && !channel.isWritable
        }
    }
}

/// Counts messages a subscription dropped; shared by the subscription value and the connection.
final class NATSDropCounter: Sendable {
    private let count = NIOLockedValueBox(0)

    func increment() { count.withLockedValue { $0 += 1 } }

    var value: Int { count.withLockedValue { $0 } }
}

extension TimeAmount {
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
