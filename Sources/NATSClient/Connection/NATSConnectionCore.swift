// Shared state of one client: the state machine, the outbound buffer, subscriptions, flush waiters and
// pending requests, behind one lock. Event-loop callbacks and user calls both go through here; actions the
// state machine returns are carried out after the lock is released.

import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

#if canImport(Network) && canImport(NIOTransportServices)
    import NIOTransportServices
#endif

final class NATSConnectionCore: Sendable {
    struct SubscriptionEntry {
        let subject: String
        let queue: String?
        let continuation: NATSMessageQueue?
        let dropCounter: NATSDropCounter?
        var delivered: Int = 0
        var max: Int?
        var inSlowEpisode = false
        var isRequestInbox: Bool { continuation == nil }
    }

    struct PendingRequest {
        let promise: EventLoopPromise<NATSMessage>
        var timeout: Scheduled<Void>?
    }

    struct State {
        var machine: NATSConnectionStateMachine
        var channel: (any Channel)?
        var outbound = NATSOutboundBuffer()
        var flushScheduled = false
        var pongWaiters = CircularBuffer<(id: UInt64, promise: EventLoopPromise<Void>?)>()
        var nextWaiterID: UInt64 = 0
        var subscriptions: [UInt64: SubscriptionEntry] = [:]
        var nextSID: UInt64 = 1
        var statistics = NATSStatistics()
        var maxPayload = 1_048_576
        var serverHeaders = true
        var connectPromise: EventLoopPromise<Void>?
        var closeWaiters: [EventLoopPromise<Void>] = []
        var requestInbox: (prefix: String, sid: UInt64)?
        var pendingRequests: [Substring: PendingRequest] = [:]
        var nextRequestToken: UInt64 = 0
        var pingTask: RepeatedTask?
        var handshakeTimeout: Scheduled<Void>?
        var finished = false
        var closeReason: NATSError?
        var runWaiters: [EventLoopPromise<NATSError?>] = []
        var queuesToWake: [NATSMessageQueue] = []
    }

    let configuration: NATSClient.Configuration
    let eventLoop: any EventLoop
    let state: NIOLockedValueBox<State>
    let events: NATSEventBroadcaster
    /// Network.framework (NIOTransportServices) instead of POSIX sockets; only ever true on Apple platforms.
    let usesTransportServices: Bool
    private let logger: Logger

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
        self.usesTransportServices = usesTransportServices
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

    // MARK: - Channel events (event loop)

    func channelActive(_ channel: any Channel) {
        eventLoop.assertInEventLoop()
        let timeout = TimeAmount(configuration.connectTimeout)
        let closeNow: Bool = state.withLockedValue { state in
            state.channel = channel
            // close() was called while the TCP connect was in flight: finish closing through this channel.
            if state.machine.state == .closing { return true }
            state.machine.channelActive()
            state.handshakeTimeout = eventLoop.scheduleTask(in: timeout) { [weak channel] in
                self.handshakeTimedOut(channel)
            }
            return false
        }
        if closeNow { channel.close(promise: nil) }
    }

    private func handshakeTimedOut(_ channel: (any Channel)?) {
        let actions: [NATSConnectionStateMachine.Action] = state.withLockedValue { state in
            guard let channel, state.channel === channel, !state.machine.isConnected else { return [] }
            return state.machine.protocolFailure(NATSError(.timeout, "handshake did not finish in time"))
        }
        perform(actions, channel: channel)
    }

    func connectFailed(_ error: any Error) {
        eventLoop.assertInEventLoop()
        logger.debug("connect failed", metadata: ["error": "\(error)"])
        let actions = state.withLockedValue { state in
            state.machine.channelInactive(error: NATSError(.noServers, "\(error)"))
        }
        perform(actions, channel: nil)
    }

    func channelInactive(_ channel: any Channel) {
        eventLoop.assertInEventLoop()
        let actions: [NATSConnectionStateMachine.Action] = state.withLockedValue { state in
            guard state.channel === channel else { return [] }
            state.channel = nil
            state.flushScheduled = false
            state.pingTask?.cancel()
            state.pingTask = nil
            state.handshakeTimeout?.cancel()
            state.handshakeTimeout = nil
            return state.machine.channelInactive()
        }
        perform(actions, channel: nil)
    }

    func errorCaught(_ error: any Error, channel: any Channel) {
        let natsError: NATSError
        if let protocolError = error as? NATSProtocolError {
            natsError = NATSError(.protocolError, protocolError.description)
        } else {
            natsError = NATSError(.notConnected, "\(error)")
        }
        let actions = state.withLockedValue { state in
            state.channel === channel ? state.machine.protocolFailure(natsError) : []
        }
        perform(actions, channel: channel)
    }

    func tlsEstablished(channel: any Channel) {
        let actions = state.withLockedValue { state in
            state.channel === channel ? state.machine.tlsEstablished() : []
        }
        perform(actions, channel: channel)
    }

    func received(_ operation: NATSServerOperation, channel: any Channel) {
        switch operation {
        case .message(let sid, let message):
            deliver(sid: sid, message: message)
        case .ping:
            perform(state.withLockedValue { $0.machine.receivedPing() }, channel: channel)
        case .pong:
            perform(state.withLockedValue { $0.machine.receivedPong() }, channel: channel)
        case .info(let info):
            perform(state.withLockedValue { $0.machine.receivedInfo(info) }, channel: channel)
        case .ok:
            break
        case .error(let text):
            logger.debug("server error", metadata: ["error": "\(text)"])
            perform(state.withLockedValue { $0.machine.receivedError(text) }, channel: channel)
        }
    }

    /// End of a read batch: wake the consumers that got messages in it.
    func readComplete() {
        let queues: [NATSMessageQueue] = state.withLockedValue { state in
            guard !state.queuesToWake.isEmpty else { return [] }
            let queues = state.queuesToWake
            state.queuesToWake.removeAll(keepingCapacity: true)
            return queues
        }
        for queue in queues { queue.wake() }
    }

    func writabilityChanged(channel: any Channel) {
        guard channel.isWritable else { return }
        state.withLockedValue { $0.flushScheduled = false }
        flushOutbound()
    }

    // MARK: - Actions

    func perform(_ actions: [NATSConnectionStateMachine.Action], channel: (any Channel)?) {
        for action in actions { perform(action, channel: channel) }
    }

    private func perform(_ action: NATSConnectionStateMachine.Action, channel: (any Channel)?) {
        switch action {
        case .connect(let server):
            logger.debug("connecting", metadata: ["server": "\(server)"])
            openChannel(to: server)

        case .upgradeTLS(let server, _):
            guard let channel else { return }
            do {
                try NATSTLSUpgrade.addHandler(
                    to: channel,
                    configuration: configuration.tls,
                    serverHostname: configuration.tls.serverName ?? server.host
                )
            } catch {
                let actions = state.withLockedValue { state in
                    state.machine.protocolFailure(NATSError(.tlsRequired, "TLS setup failed: \(error)"))
                }
                perform(actions, channel: channel)
            }

        case .sendConnect(let info):
            guard let channel else { return }
            sendConnect(info: info, channel: channel)

        case .sendPong:
            guard let channel else { return }
            var buffer = channel.allocator.buffer(capacity: 6)
            buffer.writeNATSCommand(.pong)
            channel.writeAndFlush(buffer, promise: nil)

        case .sendPing:
            let shouldFlush = state.withLockedValue { state in
                state.outbound.write(.ping)
                state.pongWaiters.append((id: 0, promise: nil))
                return scheduleFlushLocked(&state)
            }
            if shouldFlush { eventLoop.execute { self.flushOutbound() } }

        case .completePong:
            let promise: EventLoopPromise<Void>? = state.withLockedValue { state in
                state.pongWaiters.isEmpty ? nil : state.pongWaiters.removeFirst().promise
            }
            promise?.succeed()

        case .connected(let info, let server, let isReconnect):
            guard let channel else { return }
            didConnect(info: info, server: server, isReconnect: isReconnect, channel: channel)

        case .updateInfo(let info, let discovered, let enteredLameDuck):
            state.withLockedValue { state in
                state.maxPayload = info.maxPayload
                state.serverHeaders = info.headers
            }
            if !discovered.isEmpty { events.yield(.discoveredServers(discovered.map(\.description))) }
            if enteredLameDuck { events.yield(.lameDuckMode) }

        case .reportError(let error):
            logger.debug("non-fatal server error", metadata: ["error": "\(error)"])
            events.yield(.error(error))

        case .closeChannel(let error):
            logger.debug("closing connection", metadata: ["reason": "\(error)"])
            let current = state.withLockedValue { $0.channel } ?? channel
            current?.close(promise: nil)

        case .disconnected(let error):
            let waiters: [EventLoopPromise<Void>] = state.withLockedValue { state in
                let waiters = state.pongWaiters.compactMap(\.promise)
                state.pongWaiters.removeAll()
                return waiters
            }
            let failure = NATSError(.notConnected, "connection lost")
            for waiter in waiters { waiter.fail(failure) }
            logger.info("disconnected", metadata: ["reason": "\(error.map { "\($0)" } ?? "closed")"])
            events.yield(.disconnected(error))

        case .scheduleReconnect(let server, let delay):
            logger.debug("reconnect scheduled", metadata: ["server": "\(server)", "delay": "\(delay)"])
            eventLoop.scheduleTask(in: TimeAmount(delay)) {
                let actions = self.state.withLockedValue { $0.machine.reconnectTimerFired() }
                self.perform(actions, channel: nil)
            }

        case .fail(let error):
            finish(error: error)

        case .finishClose:
            finish(error: nil)
        }
    }

    private func openChannel(to server: NATSServerAddress) {
        let maxControlLine = configuration.maxControlLine
        let initializer: @Sendable (any Channel) -> EventLoopFuture<Void> = { channel in
            channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHandler(
                    ByteToMessageHandler(NATSProtocolDecoder(maxControlLine: maxControlLine))
                )
                try channel.pipeline.syncOperations.addHandler(NATSChannelHandler(core: self))
            }
        }
        let connected: EventLoopFuture<any Channel>
        #if canImport(Network) && canImport(NIOTransportServices)
            if usesTransportServices, let bootstrap = NIOTSConnectionBootstrap(validatingGroup: eventLoop) {
                // Network.framework: NIOTSConnectionBootstrap sets TCP_NODELAY itself.
                connected =
                    bootstrap
                    .connectTimeout(TimeAmount(configuration.connectTimeout))
                    .channelInitializer(initializer)
                    .connect(host: server.host, port: server.port)
            } else {
                connected = Self.posixConnect(
                    to: server, on: eventLoop, timeout: configuration.connectTimeout, initializer)
            }
        #else
            connected = Self.posixConnect(to: server, on: eventLoop, timeout: configuration.connectTimeout, initializer)
        #endif
        connected.whenFailure { error in
            self.connectFailed(error)
        }
    }

    private static func posixConnect(
        to server: NATSServerAddress,
        on eventLoop: any EventLoop,
        timeout: Duration,
        _ initializer: @escaping @Sendable (any Channel) -> EventLoopFuture<Void>
    ) -> EventLoopFuture<any Channel> {
        ClientBootstrap(group: eventLoop)
            .connectTimeout(TimeAmount(timeout))
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer(initializer)
            .connect(host: server.host, port: server.port)
    }

    private func sendConnect(info: NATSServerInfo, channel: any Channel) {
        var options = NATSConnectOptions()
        options.verbose = configuration.verbose
        options.pedantic = configuration.pedantic
        options.name = configuration.name
        options.echo = configuration.echo
        options.headers = info.headers
        options.noResponders = info.headers
        options.tlsRequired = configuration.requireTLS
        let server = state.withLockedValue { $0.machine.pool.current }
        if let user = server?.user {
            if let password = server?.password {
                options.user = user
                options.pass = password
            } else {
                options.authToken = user
            }
        }
        do {
            try configuration.auth.apply(to: &options, nonce: info.nonce)
        } catch {
            let actions = state.withLockedValue { $0.machine.protocolFailure(error) }
            perform(actions, channel: channel)
            return
        }
        var buffer = channel.allocator.buffer(capacity: 512)
        buffer.writeNATSConnect(options)
        buffer.writeNATSCommand(.ping)
        channel.writeAndFlush(buffer, promise: nil)
    }

    private func didConnect(info: NATSServerInfo, server: NATSServerAddress, isReconnect: Bool, channel: any Channel) {
        let interval = TimeAmount(configuration.pingInterval)
        let (buffer, chunks, connectPromise): (ByteBuffer, [ByteBuffer], EventLoopPromise<Void>?) =
            state.withLockedValue { state in
                state.handshakeTimeout?.cancel()
                state.handshakeTimeout = nil
                state.maxPayload = info.maxPayload
                state.serverHeaders = info.headers
                if isReconnect { state.statistics.reconnects += 1 }
                // Re-send every subscription (queue group and remaining auto-unsubscribe count), then the
                // publishes buffered while disconnected.
                var buffer = channel.allocator.buffer(capacity: 256)
                for (sid, entry) in state.subscriptions.sorted(by: { $0.key < $1.key }) {
                    buffer.writeNATSCommand(.subscribe(subject: entry.subject, queue: entry.queue, sid: sid))
                    if let max = entry.max {
                        buffer.writeNATSCommand(.unsubscribe(sid: sid, max: Swift.max(max - entry.delivered, 1)))
                    }
                }
                let chunks = state.outbound.takeForWrite()
                state.flushScheduled = false
                state.pingTask = eventLoop.scheduleRepeatedTask(initialDelay: interval, delay: interval) { _ in
                    let actions = self.state.withLockedValue { $0.machine.pingTimerFired() }
                    self.perform(actions, channel: nil)
                }
                let promise = state.connectPromise
                state.connectPromise = nil
                return (buffer, chunks, promise)
            }
        if buffer.readableBytes > 0 { channel.write(buffer, promise: nil) }
        write(chunks, to: channel)
        logger.info("connected", metadata: ["server": "\(server)", "reconnect": "\(isReconnect)"])
        events.yield(isReconnect ? .reconnected(server: server.description) : .connected(server: server.description))
        connectPromise?.succeed()
    }

    private func finish(error: NATSError?) {
        let (streams, requests, waiters, connectPromise, closeWaiters, channel, runWaiters) = state.withLockedValue {
            state in
            state.finished = true
            state.closeReason = error
            state.outbound.removeAll()
            let streams = state.subscriptions.values.compactMap(\.continuation)
            state.subscriptions.removeAll()
            let requests = state.pendingRequests.values.map { $0 }
            state.pendingRequests.removeAll()
            let waiters = state.pongWaiters.compactMap(\.promise)
            state.pongWaiters.removeAll()
            let connectPromise = state.connectPromise
            state.connectPromise = nil
            let closeWaiters = state.closeWaiters
            state.closeWaiters.removeAll()
            state.pingTask?.cancel()
            state.pingTask = nil
            let channel = state.channel
            state.channel = nil
            let runWaiters = state.runWaiters
            state.runWaiters.removeAll()
            return (streams, requests, waiters, connectPromise, closeWaiters, channel, runWaiters)
        }
        channel?.close(promise: nil)
        let closed = error ?? NATSError(.connectionClosed, "connection closed")
        for stream in streams { stream.finish() }
        for request in requests {
            request.timeout?.cancel()
            request.promise.fail(closed)
        }
        for waiter in waiters { waiter.fail(closed) }
        connectPromise?.fail(closed)
        for waiter in closeWaiters { waiter.succeed() }
        logger.info("closed", metadata: ["reason": "\(error.map { "\($0)" } ?? "requested")"])
        events.yield(.closed(error))
        events.finish()
        for waiter in runWaiters { waiter.succeed(error) }
    }

    // MARK: - Outbound

    /// Marks a flush as scheduled if one is needed; returns whether the caller must schedule it.
    func scheduleFlushLocked(_ state: inout State) -> Bool {
        guard !state.flushScheduled, state.channel != nil, state.machine.isConnected else { return false }
        state.flushScheduled = true
        return true
    }

    func flushOutbound() {
        let work: ((any Channel), [ByteBuffer])? = state.withLockedValue { state in
            guard let channel = state.channel, state.machine.isConnected, !state.outbound.isEmpty else {
                state.flushScheduled = false
                return nil
            }
            // Not writable: keep the flag set so publishes stop scheduling flushes; the writability
            // change flushes once the socket drains.
            guard channel.isWritable else { return nil }
            state.flushScheduled = false
            return (channel, state.outbound.takeForWrite())
        }
        guard let (channel, chunks) = work else { return }
        write(chunks, to: channel)
    }

    /// Writes chunks taken with `takeForWrite()` and flushes once; each chunk goes back to the pool when
    /// its write completes.
    private func write(_ chunks: [ByteBuffer], to channel: any Channel) {
        if chunks.isEmpty {
            channel.flush()
            return
        }
        for chunk in chunks {
            let written = eventLoop.makePromise(of: Void.self)
            written.futureResult.whenComplete { _ in
                self.state.withLockedValue { $0.outbound.written() }
            }
            channel.write(chunk, promise: written)
        }
        channel.flush()
    }

    func publish(
        subject: String,
        replyTo: String?,
        headers: NATSHeaders?,
        payload: ByteBuffer
    ) throws(NATSError) {
        guard NATSSubjectValidator.isValidPublishSubject(subject) else {
            throw NATSError(.invalidSubject, "invalid publish subject")
        }
        let size = payload.readableBytes
        let result: Result<Bool, NATSError> = state.withLockedValue { state in
            if state.finished || state.machine.isClosed {
                return .failure(NATSError(.connectionClosed, "connection closed"))
            }
            var total = size
            var headerBlock: ByteBuffer?
            if let headers {
                guard state.serverHeaders else {
                    return .failure(NATSError(.invalidConfiguration, "server does not support headers"))
                }
                var block = ByteBuffer()
                block.writeNATSHeaderBlock(headers)
                total += block.readableBytes
                headerBlock = block
            }
            if total > state.maxPayload {
                return .failure(
                    NATSError(
                        .maxPayloadExceeded, "payload of \(total) bytes exceeds the server maximum \(state.maxPayload)")
                )
            }
            let connected = state.machine.isConnected && state.channel != nil
            let limit = connected ? configuration.maxPendingOutboundBytes : configuration.reconnectBufferSize
            if state.outbound.pendingBytes + total > limit {
                return .failure(NATSError(.bufferFull, connected ? "outbound buffer full" : "reconnect buffer full"))
            }
            if headerBlock != nil, let headers {
                state.outbound.writeHeaderPublish(
                    subject: subject, replyTo: replyTo, headers: headers, payload: payload)
            } else {
                state.outbound.writePublish(subject: subject, replyTo: replyTo, payload: payload)
            }
            state.statistics.outMessages += 1
            state.statistics.outBytes += UInt64(size)
            return .success(scheduleFlushLocked(&state))
        }
        switch result {
        case .success(let needsFlush):
            if needsFlush { eventLoop.execute { self.flushOutbound() } }
        case .failure(let error):
            throw error
        }
    }

    func flush(timeout: Duration) async throws {
        let promise = eventLoop.makePromise(of: Void.self)
        let result: Result<(UInt64, Bool), NATSError> = state.withLockedValue { state in
            guard !state.finished else { return .failure(NATSError(.connectionClosed, "connection closed")) }
            guard state.machine.isConnected, state.channel != nil else {
                return .failure(NATSError(.notConnected, "not connected"))
            }
            state.nextWaiterID += 1
            state.outbound.write(.ping)
            state.pongWaiters.append((id: state.nextWaiterID, promise: promise))
            return .success((state.nextWaiterID, scheduleFlushLocked(&state)))
        }
        let id: UInt64
        switch result {
        case .success(let (waiterID, needsFlush)):
            id = waiterID
            if needsFlush { eventLoop.execute { self.flushOutbound() } }
        case .failure(let error):
            promise.fail(error)
            throw error
        }
        let timer = eventLoop.scheduleTask(in: TimeAmount(timeout)) {
            let expired: EventLoopPromise<Void>? = self.state.withLockedValue { state in
                guard let index = state.pongWaiters.firstIndex(where: { $0.id == id }) else { return nil }
                let waiter = state.pongWaiters[index].promise
                state.pongWaiters[index] = (id: 0, promise: nil)
                return waiter
            }
            expired?.fail(NATSError(.timeout, "no PONG within \(timeout)"))
        }
        defer { timer.cancel() }
        try await promise.futureResult.get()
    }

    // MARK: - Subscriptions

    func subscribe(
        subject: String,
        queue: String?,
        pendingLimit: Int,
        dropCounter: NATSDropCounter
    ) throws(NATSError) -> (UInt64, NATSMessageQueue) {
        guard NATSSubjectValidator.isValidSubscribeSubject(subject) else {
            throw NATSError(.invalidSubject, "invalid subscription subject")
        }
        if let queue, !NATSSubjectValidator.isValidQueueName(queue) {
            throw NATSError(.invalidSubject, "invalid queue group name")
        }
        let result: Result<(UInt64, NATSMessageQueue, Bool), NATSError> = state.withLockedValue { state in
            if state.finished || state.machine.isClosed {
                return .failure(NATSError(.connectionClosed, "connection closed"))
            }
            let sid = state.nextSID
            state.nextSID += 1
            let continuation = NATSMessageQueue(limit: pendingLimit) { [weak self] in
                self?.unsubscribe(sid: sid, after: nil)
            }
            state.subscriptions[sid] = SubscriptionEntry(
                subject: subject,
                queue: queue,
                continuation: continuation,
                dropCounter: dropCounter
            )
            guard state.machine.isConnected, state.channel != nil else { return .success((sid, continuation, false)) }
            state.outbound.write(.subscribe(subject: subject, queue: queue, sid: sid))
            return .success((sid, continuation, scheduleFlushLocked(&state)))
        }
        switch result {
        case .success(let (sid, queue, needsFlush)):
            if needsFlush { eventLoop.execute { self.flushOutbound() } }
            return (sid, queue)
        case .failure(let error):
            throw error
        }
    }

    func unsubscribe(sid: UInt64, after max: Int?) {
        let (needsFlush, finished): (Bool, NATSMessageQueue?) = state.withLockedValue { state in
            guard var entry = state.subscriptions[sid] else { return (false, nil) }
            var finished: NATSMessageQueue?
            if let max, entry.delivered < max {
                entry.max = max
                state.subscriptions[sid] = entry
            } else {
                state.subscriptions[sid] = nil
                finished = entry.continuation
            }
            guard state.machine.isConnected, state.channel != nil else { return (false, finished) }
            // Like nats.go, the live UNSUB carries the total; a resubscribe after reconnect sends what remains.
            state.outbound.write(.unsubscribe(sid: sid, max: finished == nil ? max : nil))
            return (scheduleFlushLocked(&state), finished)
        }
        finished?.finish()
        if needsFlush { eventLoop.execute { self.flushOutbound() } }
    }

    private func deliver(sid: UInt64, message: NATSMessage) {
        enum Outcome {
            case none
            case slowConsumer(NATSError)
            case response(EventLoopPromise<NATSMessage>, Scheduled<Void>?)
        }
        let outcome: Outcome = state.withLockedValue { state in
            state.statistics.inMessages += 1
            state.statistics.inBytes += UInt64(message.payload.readableBytes)
            guard var entry = state.subscriptions[sid] else { return .none }
            guard let continuation = entry.continuation else {
                // The shared request inbox: route by the last token.
                guard let inbox = state.requestInbox, message.subject.hasPrefix(inbox.prefix) else { return .none }
                let token = message.subject.dropFirst(inbox.prefix.count)
                guard let pending = state.pendingRequests.removeValue(forKey: token) else { return .none }
                return .response(pending.promise, pending.timeout)
            }
            entry.delivered += 1
            var outcome = Outcome.none
            switch continuation.enqueue(message) {
            case .dropped:
                entry.dropCounter?.increment()
                if !entry.inSlowEpisode {
                    entry.inSlowEpisode = true
                    outcome = .slowConsumer(
                        NATSError(.slowConsumer, "subscription \(sid) on \(entry.subject) is dropping messages")
                    )
                }
            case .enqueued(let needsWake):
                entry.inSlowEpisode = false
                if needsWake { state.queuesToWake.append(continuation) }
            case .terminated:
                break
            }
            if let max = entry.max, entry.delivered >= max {
                state.subscriptions[sid] = nil
                continuation.finish()
            } else {
                state.subscriptions[sid] = entry
            }
            return outcome
        }
        switch outcome {
        case .none:
            break
        case .slowConsumer(let error):
            events.yield(.error(error))
        case .response(let promise, let timeout):
            timeout?.cancel()
            if message.status == 503, message.payload.readableBytes == 0 {
                promise.fail(NATSError(.noResponders, "no responders for the request"))
            } else {
                promise.succeed(message)
            }
        }
    }

    // MARK: - Request/reply

    func request(
        subject: String,
        headers: NATSHeaders?,
        payload: ByteBuffer,
        timeout: Duration
    ) async throws -> NATSMessage {
        guard NATSSubjectValidator.isValidPublishSubject(subject) else {
            throw NATSError(.invalidSubject, "invalid publish subject")
        }
        let promise = eventLoop.makePromise(of: NATSMessage.self)
        let reply: Result<(String, Substring), NATSError> = state.withLockedValue { state in
            if state.finished || state.machine.isClosed {
                return .failure(NATSError(.connectionClosed, "connection closed"))
            }
            if state.requestInbox == nil {
                let prefix = "\(configuration.inboxPrefix).\(NATSNUID.next())."
                let sid = state.nextSID
                state.nextSID += 1
                state.subscriptions[sid] = SubscriptionEntry(
                    subject: prefix + "*",
                    queue: nil,
                    continuation: nil,
                    dropCounter: nil
                )
                state.requestInbox = (prefix, sid)
                if state.machine.isConnected, state.channel != nil {
                    state.outbound.write(.subscribe(subject: prefix + "*", queue: nil, sid: sid))
                }
            }
            state.nextRequestToken += 1
            let token = Substring(String(state.nextRequestToken, radix: 36))
            state.pendingRequests[token] = PendingRequest(promise: promise, timeout: nil)
            return .success((state.requestInbox!.prefix + token, token))
        }
        let (replySubject, token): (String, Substring)
        switch reply {
        case .success(let value): (replySubject, token) = value
        case .failure(let error):
            promise.fail(error)
            throw error
        }
        let timer = eventLoop.scheduleTask(in: TimeAmount(timeout)) {
            self.failRequest(token: token, error: NATSError(.timeout, "no reply within \(timeout)"))
        }
        state.withLockedValue { state in state.pendingRequests[token]?.timeout = timer }
        do {
            try publish(subject: subject, replyTo: replySubject, headers: headers, payload: payload)
        } catch {
            timer.cancel()
            failRequest(token: token, error: error)
        }
        return try await withTaskCancellationHandler {
            try await promise.futureResult.get()
        } onCancel: {
            self.failRequest(token: token, error: NATSError(.timeout, "request cancelled"))
        }
    }

    private func failRequest(token: Substring, error: NATSError) {
        let pending = state.withLockedValue { $0.pendingRequests.removeValue(forKey: token) }
        pending?.timeout?.cancel()
        pending?.promise.fail(error)
    }

    // MARK: - Drain

    /// Unsubscribes `sid` on the server, waits for a PING/PONG round trip so every message the server
    /// sent before the UNSUB has arrived, then ends the subscription's sequence.
    func drainSubscription(sid: UInt64, timeout: Duration) async throws {
        let needsFlush: Bool = state.withLockedValue { state in
            guard state.subscriptions[sid] != nil, state.machine.isConnected, state.channel != nil else { return false }
            state.outbound.write(.unsubscribe(sid: sid, max: nil))
            return scheduleFlushLocked(&state)
        }
        if needsFlush { eventLoop.execute { self.flushOutbound() } }
        var failure: (any Error)?
        do {
            try await flush(timeout: timeout)
        } catch {
            failure = error
        }
        let queue = state.withLockedValue { $0.subscriptions.removeValue(forKey: sid)?.continuation }
        queue?.finish()
        if let failure { throw failure }
    }

    func drain(timeout: Duration) async throws {
        let (needsFlush, started): (Bool, Bool) = state.withLockedValue { state in
            guard state.machine.startDraining() else { return (false, false) }
            for (sid, entry) in state.subscriptions where !entry.isRequestInbox {
                state.outbound.write(.unsubscribe(sid: sid, max: nil))
            }
            return (scheduleFlushLocked(&state), true)
        }
        guard started else {
            await close()
            return
        }
        if needsFlush { eventLoop.execute { self.flushOutbound() } }
        var failure: (any Error)?
        do {
            // The PONG comes after every message the server sent before it processed our UNSUBs.
            try await flush(timeout: timeout)
        } catch {
            failure = error
        }
        let streams = state.withLockedValue { state in
            let streams = state.subscriptions.values.compactMap(\.continuation)
            state.subscriptions = state.subscriptions.filter { $0.value.isRequestInbox }
            return streams
        }
        for stream in streams { stream.finish() }
        await close()
        if let failure { throw failure }
    }

    // MARK: - Introspection

    var statistics: NATSStatistics { state.withLockedValue { $0.statistics } }
    var maxPayload: Int { state.withLockedValue { $0.maxPayload } }
    var isConnected: Bool { state.withLockedValue { $0.machine.isConnected } }
    var connectedServerInfo: NATSServerInfo? { state.withLockedValue { $0.machine.serverInfo } }
    var knownServers: [String] { state.withLockedValue { $0.machine.pool.addresses.map(\.description) } }
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
