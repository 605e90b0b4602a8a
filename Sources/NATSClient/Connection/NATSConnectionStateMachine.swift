// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// The connection lifecycle as a pure state machine: the channel handler feeds it events and carries out
// the actions it returns. No I/O, no clocks: time arrives as timer events, randomness through `jitter`.

/// The lifecycle of a NATS connection: connect → INFO → (TLS) → CONNECT + PING → PONG → connected, then
/// keepalive, server errors, reconnect with backoff, drain and close.
struct NATSConnectionStateMachine: Sendable {
    struct Configuration: Sendable {
        var requireTLS: Bool = false
        var maxPingsOut: Int = 2
        var reconnect: NATSReconnectPolicy = NATSReconnectPolicy()
        /// Keep retrying (with the reconnect policy) when the very first connect fails.
        var retryOnFailedConnect: Bool = false
    }

    enum State: Sendable, Equatable {
        case idle
        case connecting(NATSServerAddress)
        case awaitingInfo(NATSServerAddress)
        case tlsHandshake(NATSServerAddress, NATSServerInfo)
        case awaitingPong(NATSServerAddress, NATSServerInfo)
        case connected(NATSServerAddress, NATSServerInfo)
        case draining(NATSServerAddress, NATSServerInfo)
        case reconnectWaiting(NATSServerAddress)
        case closing
        case closed
    }

    enum Action: Sendable, Equatable {
        /// Open a TCP connection to the server.
        case connect(NATSServerAddress)
        /// Add TLS to the channel, then report ``NATSConnectionStateMachine/tlsEstablished()``.
        case upgradeTLS(NATSServerAddress, NATSServerInfo)
        /// Write `CONNECT {…}` and `PING` (signing the nonce if the auth needs it).
        case sendConnect(NATSServerInfo)
        /// Write `PONG`.
        case sendPong
        /// Write a keepalive `PING`.
        case sendPing
        /// A `PONG` arrived while connected: release the oldest flush waiter.
        case completePong
        /// The handshake finished: resubscribe, flush buffered publishes, report connected/reconnected.
        case connected(NATSServerInfo, server: NATSServerAddress, isReconnect: Bool)
        /// Async INFO: update the max payload and report discovered servers and lame duck mode.
        case updateInfo(NATSServerInfo, discovered: [NATSServerAddress], enteredLameDuck: Bool)
        /// Report a non-fatal error (permissions violation, …).
        case reportError(NATSError)
        /// Close the current channel; the reason is reported once it is inactive.
        case closeChannel(NATSError)
        /// The connection was lost: report it and fail outstanding flushes.
        case disconnected(NATSError?)
        /// Wait, then report ``NATSConnectionStateMachine/reconnectTimerFired()``.
        case scheduleReconnect(NATSServerAddress, after: Duration)
        /// Give up: the client is closed with this error.
        case fail(NATSError)
        /// The requested close finished.
        case finishClose
    }

    let configuration: Configuration
    private let jitter: @Sendable () -> Double
    private(set) var state: State = .idle {
        didSet {
            switch state {
            case .connected, .draining: (isConnected, isClosed) = (true, false)
            case .closed: (isConnected, isClosed) = (false, true)
            default: (isConnected, isClosed) = (false, false)
            }
        }
    }
    /// Connected or draining. Kept with every change of `state`: every publish asks, and reading the case of
    /// `state` itself would copy it, payloads and their retains included.
    private(set) var isConnected = false
    /// Closed for good (kept as ``isConnected`` is).
    private(set) var isClosed = false
    private(set) var pool: NATSServerPool
    private(set) var pingsOutstanding = 0
    private(set) var reconnects = 0
    private var everConnected = false
    private var attemptsSinceWait = 0
    private var waitRounds = 0
    private var lastError: NATSError?
    private var lameDuck = false

    init(servers: [NATSServerAddress], configuration: Configuration, jitter: @escaping @Sendable () -> Double) {
        self.configuration = configuration
        self.pool = NATSServerPool(servers)
        self.jitter = jitter
    }

    var serverInfo: NATSServerInfo? {
        switch state {
        case .connected(_, let info), .draining(_, let info), .awaitingPong(_, let info), .tlsHandshake(_, let info):
            info
        default:
            nil
        }
    }

    mutating func start() -> Action {
        guard state == .idle else { return .fail(NATSError(.invalidConfiguration, "already started")) }
        guard let server = pool.next(maxAttemptsPerServer: nil) else {
            state = .closed
            return .fail(NATSError(.noServers, "no server configured"))
        }
        pool.recordAttempt()
        attemptsSinceWait = 1
        state = .connecting(server)
        return .connect(server)
    }

    mutating func channelActive() {
        if case .connecting(let server) = state { state = .awaitingInfo(server) }
    }

    mutating func receivedInfo(_ info: NATSServerInfo) -> [Action] {
        switch state {
        case .awaitingInfo(let server):
            lameDuck = info.lameDuckMode
            _ = pool.merge(connectURLs: info.connectURLs, scheme: server.scheme)
            if configuration.requireTLS || info.tlsRequired || server.scheme == "tls" {
                state = .tlsHandshake(server, info)
                return [.upgradeTLS(server, info)]
            }
            state = .awaitingPong(server, info)
            return [.sendConnect(info)]
        case .tlsHandshake(let server, _):
            state = .tlsHandshake(server, info)
            return []
        case .awaitingPong(let server, _):
            state = .awaitingPong(server, info)
            return []
        case .connected(let server, _), .draining(let server, _):
            let discovered = pool.merge(connectURLs: info.connectURLs, scheme: server.scheme)
            let enteredLameDuck = info.lameDuckMode && !lameDuck
            lameDuck = info.lameDuckMode
            if case .draining = state { state = .draining(server, info) } else { state = .connected(server, info) }
            return [.updateInfo(info, discovered: discovered, enteredLameDuck: enteredLameDuck)]
        default:
            return []
        }
    }

    mutating func tlsEstablished() -> [Action] {
        guard case .tlsHandshake(let server, let info) = state else { return [] }
        state = .awaitingPong(server, info)
        return [.sendConnect(info)]
    }

    mutating func receivedPong() -> [Action] {
        switch state {
        case .awaitingPong(let server, let info):
            let isReconnect = everConnected
            if isReconnect { reconnects += 1 }
            everConnected = true
            pool.recordConnected()
            // The server just connected to counts as tried: losing it with no other server means waiting.
            attemptsSinceWait = 1
            waitRounds = 0
            pingsOutstanding = 0
            lastError = nil
            state = .connected(server, info)
            return [.connected(info, server: server, isReconnect: isReconnect)]
        case .connected, .draining:
            pingsOutstanding = 0
            return [.completePong]
        default:
            return []
        }
    }

    mutating func receivedPing() -> [Action] {
        switch state {
        case .awaitingInfo, .tlsHandshake, .awaitingPong, .connected, .draining:
            return [.sendPong]
        default:
            return []
        }
    }

    mutating func receivedOK() -> [Action] { [] }

    mutating func receivedError(_ text: String) -> [Action] {
        let classified = NATSServerError(text: text)
        switch state {
        case .connected, .draining:
            if classified.isFatal {
                lastError = classified.error
                return [.reportError(classified.error), .closeChannel(classified.error)]
            }
            return [.reportError(classified.error)]
        case .awaitingInfo, .tlsHandshake, .awaitingPong:
            // During the handshake every -ERR ends this attempt.
            lastError = classified.error
            return [.closeChannel(classified.error)]
        default:
            return []
        }
    }

    mutating func protocolFailure(_ error: NATSError) -> [Action] {
        switch state {
        case .idle, .closed, .closing, .reconnectWaiting:
            return []
        default:
            lastError = error
            return [.closeChannel(error)]
        }
    }

    mutating func pingTimerFired() -> [Action] {
        guard isConnected else { return [] }
        if pingsOutstanding >= configuration.maxPingsOut {
            let error = NATSError(.staleConnection, "\(pingsOutstanding) pings without a pong")
            lastError = error
            return [.closeChannel(error)]
        }
        pingsOutstanding += 1
        return [.sendPing]
    }

    /// The TCP connect failed, or the channel became inactive.
    mutating func channelInactive(error: NATSError? = nil) -> [Action] {
        if let error, lastError == nil { lastError = error }
        switch state {
        case .closing:
            state = .closed
            return [.finishClose]
        case .closed, .idle, .reconnectWaiting:
            return []
        case .draining:
            state = .closed
            return [.disconnected(lastError), .finishClose]
        case .connected:
            var actions: [Action] = [.disconnected(lastError)]
            actions += nextAttempt()
            return actions
        case .connecting, .awaitingInfo, .tlsHandshake, .awaitingPong:
            return nextAttempt()
        }
    }

    private mutating func nextAttempt() -> [Action] {
        let failure = lastError ?? NATSError(.noServers, "could not connect to any server")
        if !everConnected {
            // Initial connect: try each configured server once, then retry only if asked to.
            if attemptsSinceWait < pool.entries.count, let server = pool.next(maxAttemptsPerServer: nil) {
                pool.recordAttempt()
                attemptsSinceWait += 1
                lastError = nil
                state = .connecting(server)
                return [.connect(server)]
            }
            if !configuration.retryOnFailedConnect || !configuration.reconnect.isEnabled {
                state = .closed
                return [.fail(failure)]
            }
        } else if !configuration.reconnect.isEnabled {
            state = .closed
            return [.fail(failure)]
        }
        guard let server = pool.next(maxAttemptsPerServer: configuration.reconnect.maxAttemptsPerServer) else {
            state = .closed
            return [.fail(NATSError(.noServers, "reconnect attempts exhausted: \(failure.message)"))]
        }
        pool.recordAttempt()
        lastError = nil
        if attemptsSinceWait >= pool.entries.count {
            // The whole pool was tried since the last wait: back off.
            let delay = configuration.reconnect.delay(round: waitRounds, jitterFraction: jitter())
            waitRounds += 1
            attemptsSinceWait = 1
            state = .reconnectWaiting(server)
            return [.scheduleReconnect(server, after: delay)]
        }
        attemptsSinceWait += 1
        state = .connecting(server)
        return [.connect(server)]
    }

    mutating func reconnectTimerFired() -> [Action] {
        guard case .reconnectWaiting(let server) = state else { return [] }
        state = .connecting(server)
        return [.connect(server)]
    }

    mutating func startDraining() -> Bool {
        guard case .connected(let server, let info) = state else { return false }
        state = .draining(server, info)
        return true
    }

    mutating func close() -> [Action] {
        switch state {
        case .closed, .closing:
            return []
        case .idle, .reconnectWaiting:
            state = .closed
            return [.finishClose]
        default:
            state = .closing
            return [.closeChannel(NATSError(.connectionClosed, "closed by the client"))]
        }
    }
}
