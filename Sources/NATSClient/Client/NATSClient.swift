// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// The public client: connect, publish, subscribe, request, flush, drain, close, events and statistics.

public import NIOCore
import NIOPosix
public import ServiceLifecycle

#if canImport(Network) && canImport(NIOTransportServices)
    import NIOTransportServices
#endif

/// A NATS client on SwiftNIO.
///
/// ```swift
/// let client = try NATSClient(configuration: .init(servers: ["nats://127.0.0.1:4222"]))
/// try await client.connect()
/// let subscription = try client.subscribe(to: "greet.*")
/// try client.publish("hello", to: "greet.joe")
/// for await message in subscription { print(message.payloadString) }
/// await client.close()
/// ```
///
/// Publishing never waits: bytes are encoded into one outbound buffer and written in coalesced batches on
/// the event loop. While reconnecting, publishes are kept (up to ``Configuration/reconnectBufferSize``) and
/// sent after subscriptions are restored.
public final class NATSClient: Sendable {
    /// The configuration the client was created with.
    public let configuration: Configuration
    /// Lifecycle events and asynchronous errors, buffered from the moment the client is created (the newest
    /// 1024 are kept). This stream has one consumer; for more, each call of ``makeEventStream(bufferSize:)``
    /// returns another independent one. Ends when the client closes.
    public let events: AsyncStream<NATSEvent>
    @usableFromInline let core: NATSConnectionCore
    private let broadcaster: NATSEventBroadcaster

    /// The major protocol version sent in CONNECT (`1`: the client accepts asynchronous INFO).
    public static let protocolVersion = 1

    /// Creates a client; nothing connects until ``connect()``.
    ///
    /// - Parameters:
    ///   - configuration: Servers, options and credentials.
    ///   - eventLoopGroup: Where the connection runs (one event loop of it). By default the shared singleton
    ///     of the transport ``Configuration/transport`` selects: `NIOTSEventLoopGroup` for Network.framework,
    ///     `MultiThreadedEventLoopGroup` for POSIX sockets.
    /// - Throws: `NATSError.Code.invalidConfiguration` if no server URL parses, or if the transport cannot
    ///   run on this platform or on `eventLoopGroup`.
    public init(
        configuration: Configuration,
        eventLoopGroup: (any EventLoopGroup)? = nil
    ) throws(NATSError) {
        let servers = configuration.servers.compactMap { NATSServerAddress($0) }
        guard !servers.isEmpty, servers.count == configuration.servers.count else {
            throw NATSError(.invalidConfiguration, "unparsable server URL in \(configuration.servers.count) servers")
        }
        let (group, usesTransportServices) = try Self.transport(configuration.transport, eventLoopGroup)
        self.configuration = configuration
        let broadcaster = NATSEventBroadcaster()
        self.broadcaster = broadcaster
        self.events = broadcaster.makeStream(bufferSize: 1024)
        self.core = NATSConnectionCore(
            configuration: configuration,
            servers: servers,
            eventLoop: group.next(),
            usesTransportServices: usesTransportServices,
            events: broadcaster
        )
    }

    /// The connection's event loop as a task executor, for loops of requests (or of answers) that should not
    /// hop threads.
    ///
    /// The client's connection stays on one event loop for its whole life (reconnects included). Code that
    /// prefers this executor runs on that loop's thread: a request is written without waking the loop from
    /// another thread, and its reply resumes the waiting task on the same thread instead of a thread of the
    /// global concurrency pool. A request/reply loop there takes no thread hop per round trip
    /// (docs/benchmarks.md has the figures):
    ///
    /// ```swift
    /// try await withTaskExecutorPreference(client.taskExecutor) {
    ///     for order in orders {
    ///         let reply = try await client.request(order.encoded(), to: "orders.place")
    ///         …
    ///     }
    /// }
    /// ```
    ///
    /// A bulk publisher that sends on it writes each chunk to the socket as it fills and waits while the
    /// socket is backed up (<doc:Resilience>). A subscription's consuming loop on it takes each read's messages
    /// on the thread that read them, with no hand-off to another thread per batch. Keep the work between awaits
    /// short on it: while the task runs, the connection reads nothing. Actor-isolated code (the main actor
    /// included) still runs on its actor's executor.
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    public var taskExecutor: any TaskExecutor {
        NATSEventLoopTaskExecutor(eventLoop: core.eventLoop)
    }

    private static func transport(
        _ transport: NATSTransport,
        _ group: (any EventLoopGroup)?
    ) throws(NATSError) -> (any EventLoopGroup, Bool) {
        #if canImport(Network) && canImport(NIOTransportServices)
            switch transport {
            case .posix:
                return (group ?? MultiThreadedEventLoopGroup.singleton, false)
            case .automatic:
                guard let group else { return (NIOTSEventLoopGroup.singleton, true) }
                return (group, NIOTSConnectionBootstrap(validatingGroup: group) != nil)
            case .transportServices:
                let group = group ?? NIOTSEventLoopGroup.singleton
                guard NIOTSConnectionBootstrap(validatingGroup: group) != nil else {
                    throw NATSError(.invalidConfiguration, "NIOTransportServices needs a NIOTSEventLoopGroup")
                }
                return (group, true)
            }
        #else
            switch transport {
            case .posix, .automatic:
                return (group ?? MultiThreadedEventLoopGroup.singleton, false)
            case .transportServices:
                throw NATSError(.invalidConfiguration, "NIOTransportServices needs Network.framework (Apple platforms)")
            }
        #endif
    }

    /// Another independent consumer of lifecycle events and asynchronous errors.
    ///
    /// Every stream made here sees the events that happen after it was made, each with its own buffer:
    /// when more than `bufferSize` events wait unread, that stream drops its oldest ones; other consumers
    /// are not affected. The stream ends when the client closes (at once if it already has); a consumer
    /// that stops iterating is removed.
    public func makeEventStream(bufferSize: Int = 256) -> AsyncStream<NATSEvent> {
        broadcaster.makeStream(bufferSize: bufferSize)
    }

    /// Calls `listener` with every event from now on, on the thread that reports it; `nil` once the client has
    /// closed. For the client's own parts that must not keep a task to read a stream (a JetStream fetch).
    func addEventListener(_ listener: @escaping @Sendable (NATSEvent) -> Void) -> UInt64? {
        broadcaster.addListener(listener)
    }

    /// Stops calling the listener `id` of ``addEventListener(_:)``.
    func removeEventListener(_ id: UInt64) {
        broadcaster.removeListener(id)
    }

    /// Connects to the first reachable server and completes the handshake (CONNECT, then PING/PONG).
    public func connect() async throws {
        try await core.connect()
    }

    /// Whether a connection is established right now.
    public var isConnected: Bool { core.isConnected }

    /// The INFO of the current server, if connected.
    public var serverInfo: NATSServerInfo? { core.connectedServerInfo }

    /// The largest payload the current server accepts.
    public var maxPayload: Int { core.maxPayload }

    /// Configured and discovered servers, in the order they will be tried.
    public var knownServers: [String] { core.knownServers }

    /// Message and byte counters.
    public var statistics: NATSStatistics { core.statistics }

    /// Sends waiting for room in the outbound buffer (for tests).
    var waitingSends: Int { core.waitingSends }

    /// Publishes are queued and the socket takes no more (for tests).
    var outboundIsBackedUp: Bool { core.outboundIsBackedUp }

    /// Bytes queued and not yet handed to the connection's channel (for tests).
    var pendingOutboundBytes: Int { core.pendingOutboundBytes }

    /// Bytes queued or handed to the channel and not yet written to the socket (for tests).
    var unwrittenOutboundBytes: Int { core.unwrittenOutboundBytes }

    // MARK: Publish

    /// Publishes `payload` to `subject` without waiting.
    ///
    /// The message is queued for the connection's writer (or, while disconnected, for the next connection).
    /// When the message does not fit in ``Configuration/maxPendingOutboundBytes`` (``Configuration/reconnectBufferSize``
    /// while disconnected) beside what is queued and what waiting ``send(_:to:replyTo:headers:)-(ByteBuffer,_,_,_)``
    /// calls will queue, it is refused with `bufferFull` and nothing is queued; use `send` to wait for room instead.
    ///
    /// - Throws: ``NATSError`` with `invalidSubject`, `maxPayloadExceeded`, `bufferFull` or `connectionClosed`.
    public func publish(
        _ payload: ByteBuffer,
        to subject: String,
        replyTo: String? = nil,
        headers: NATSHeaders? = nil
    ) throws(NATSError) {
        try core.publish(subject: subject, replyTo: replyTo, headers: headers, payload: payload)
    }

    /// Publishes the UTF-8 bytes of `payload`.
    public func publish(
        _ payload: String,
        to subject: String,
        replyTo: String? = nil,
        headers: NATSHeaders? = nil
    ) throws(NATSError) {
        try core.publish(subject: subject, replyTo: replyTo, headers: headers, payload: ByteBuffer(string: payload))
    }

    /// Publishes raw bytes.
    public func publish(
        _ payload: [UInt8],
        to subject: String,
        replyTo: String? = nil,
        headers: NATSHeaders? = nil
    ) throws(NATSError) {
        try core.publish(subject: subject, replyTo: replyTo, headers: headers, payload: ByteBuffer(bytes: payload))
    }

    /// Publishes `payload` to `subject`, waiting while the outbound buffer is full (back-pressure).
    ///
    /// Like ``publish(_:to:replyTo:headers:)-(ByteBuffer,_,_,_)``, but when the buffer has no room the call
    /// suspends until the connection has handed enough to the socket (or, while disconnected, until the
    /// next connection took the reconnect buffer), then queues the message. While connected it also waits
    /// once about 1 MiB is unwritten to the socket, until half of it is written (a publisher that outruns the
    /// network keeps about 1 MiB in memory, not the whole limit). Waiting sends are queued in the order they
    /// came, and a `publish` does not take room they need. A message larger than the limit goes alone into an
    /// empty buffer. Returning means queued, not delivered: ``flush(timeout:)`` confirms the server has it.
    ///
    /// - Throws: ``NATSError`` with `invalidSubject`, `maxPayloadExceeded` or `invalidConfiguration` (headers
    ///   to a server without them) at once; `connectionClosed` if the client closes while the message waits;
    ///   `cancelled` if the calling task is cancelled while it waits (the message is then not sent).
    @inlinable
    nonisolated(nonsending) public func send(
        _ payload: ByteBuffer,
        to subject: String,
        replyTo: String? = nil,
        headers: NATSHeaders? = nil
    ) async throws(NATSError) {
        if headers == nil, try core.sendWithoutWaiting(subject: subject, replyTo: replyTo, payload: payload) { return }
        try await core.send(subject: subject, replyTo: replyTo, headers: headers, payload: payload)
    }

    /// Publishes the UTF-8 bytes of `payload`, waiting while the outbound buffer is full.
    nonisolated(nonsending) public func send(
        _ payload: String,
        to subject: String,
        replyTo: String? = nil,
        headers: NATSHeaders? = nil
    ) async throws(NATSError) {
        try await send(ByteBuffer(string: payload), to: subject, replyTo: replyTo, headers: headers)
    }

    /// Sends a PING after everything published so far and waits for the PONG: when this returns, the
    /// server has processed every earlier publish.
    nonisolated(nonsending) public func flush(timeout: Duration = .seconds(10)) async throws {
        try await core.flush(timeout: timeout)
    }

    // MARK: Subscribe

    /// Subscribes to `subject`, optionally in a queue group. Messages arrive through the returned
    /// asynchronous sequence, which buffers up to `pendingLimit` messages; beyond that new messages are
    /// dropped, counted in ``NATSSubscription/droppedMessages`` and reported once per episode as a
    /// `slowConsumer` error event.
    public func subscribe(
        to subject: String,
        queue: String? = nil,
        pendingLimit: Int? = nil
    ) throws(NATSError) -> NATSSubscription {
        let dropCounter = NATSDropCounter()
        let (sid, messages) = try core.subscribe(
            subject: subject,
            queue: queue,
            pendingLimit: pendingLimit ?? configuration.subscriptionPendingLimit,
            dropCounter: dropCounter
        )
        return NATSSubscription(
            sid: sid, subject: subject, queue: queue, messages: messages, core: core, dropCounter: dropCounter)
    }

    /// Subscribes `subject` with a sink of the client's own (a JetStream fetch's pull inbox) instead of a
    /// ``NATSSubscription``'s queue; returns the subscription id for ``unsubscribe(sid:)``.
    ///
    /// - Parameter flush: Send the SUB now; `false` when a publish follows at once and its flush sends both.
    func subscribe<Sink: NATSMessageSink>(to subject: String, sink: Sink, flush: Bool = true) throws(NATSError)
        -> UInt64
    {
        try core.subscribe(subject: subject, flush: flush) { _ in sink }.0
    }

    /// Ends the subscription `sid` now (its sink is finished).
    ///
    /// - Parameter flush: Send the UNSUB now; `false` when nothing more can come on it: it goes with the next write.
    func unsubscribe(sid: UInt64, flush: Bool = true) {
        core.unsubscribe(sid: sid, after: nil, flush: flush)
    }

    /// Subscribes for the duration of `body` and unsubscribes when it returns or throws.
    public func withSubscription<Result: Sendable>(
        to subject: String,
        queue: String? = nil,
        _ body: (NATSSubscription) async throws -> Result
    ) async throws -> Result {
        let subscription = try subscribe(to: subject, queue: queue)
        do {
            let result = try await body(subscription)
            subscription.unsubscribe()
            return result
        } catch {
            subscription.unsubscribe()
            throw error
        }
    }

    // MARK: Request/reply

    /// Publishes a request and waits for the first reply.
    ///
    /// All requests share one wildcard inbox subscription (`<inboxPrefix>.<random>.*`).
    /// - Throws: ``NATSError`` `noResponders` when nobody is subscribed (status 503), `timeout` when no
    ///   reply arrives in time.
    nonisolated(nonsending) public func request(
        _ payload: ByteBuffer,
        to subject: String,
        headers: NATSHeaders? = nil,
        timeout: Duration? = nil
    ) async throws -> NATSMessage {
        try await core.request(
            subject: subject,
            headers: headers,
            payload: payload,
            timeout: timeout ?? configuration.requestTimeout
        )
    }

    /// Publishes a UTF-8 request and waits for the first reply.
    nonisolated(nonsending) public func request(
        _ payload: String,
        to subject: String,
        headers: NATSHeaders? = nil,
        timeout: Duration? = nil
    ) async throws -> NATSMessage {
        try await request(ByteBuffer(string: payload), to: subject, headers: headers, timeout: timeout)
    }

    // MARK: Shutdown

    /// Unsubscribes everything, lets messages already sent by the server reach the subscriptions, flushes
    /// pending publishes, then closes. Subscriptions' sequences end after their buffered messages.
    public func drain(timeout: Duration = .seconds(30)) async throws {
        try await core.drain(timeout: timeout)
    }

    /// Closes the connection now. Pending requests and flushes fail; subscription sequences end.
    public func close() async {
        await core.close()
    }

    // MARK: Running as a service

    /// Connects (unless ``connect()`` was already called) and suspends until the client closes.
    ///
    /// This is the `run()` of swift-service-lifecycle's `Service`, which ``NATSClient`` conforms to: in a
    /// `ServiceGroup`, a graceful shutdown drains the client (``drain(timeout:)`` with
    /// ``Configuration/drainTimeout``) and cancellation closes it. Without a service group, cancelling the
    /// calling task closes the client.
    ///
    /// - Throws: The error that closed the client (for example `authorizationViolation`, or reconnect
    ///   attempts exhausted); nothing when it was closed by ``close()`` or ``drain(timeout:)``.
    public func run() async throws {
        if !core.hasStarted { try await connect() }
        let core = self.core
        let drainTimeout = configuration.drainTimeout
        let reason: NATSError? = await withGracefulShutdownHandler {
            await withTaskCancellationHandler {
                await core.waitUntilClosed()
            } onCancel: {
                core.startClose(waiter: nil)
            }
        } onGracefulShutdown: {
            Task { try? await core.drain(timeout: drainTimeout) }
        }
        if let reason { throw reason }
    }
}

extension NATSClient: Service {}
