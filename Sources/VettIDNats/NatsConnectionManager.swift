// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation
import Logging
import NATSClient
public import Observation
public import VettIDClient
import VettIDCore
public import VettIDMessaging

/// Keeps the member's app connected to nats-server with a valid token, for the UI and for messaging.
///
/// ```swift
/// let manager = NatsConnectionManager(
///     configuration: .init(tls: NATSTLSConfiguration(rootCertificatesPath: caPath)),
///     provider: vaultService,                        // issues app tokens
///     store: NatsCredentialStore(store: secureStore)
/// )
/// await manager.connect()                            // .connecting → .connected (or .error(message))
/// let vault = try manager.ownerSpace()
/// let status = try await vault.status()
/// ```
///
/// It uses the stored credentials unless they are missing, expired or within the refresh window, and fetches
/// new ones from the `NatsCredentialProvider` otherwise (storing them). Before the token expires it swaps to a
/// fresh one without losing subscriptions or messages (make-before-break, see ``NatsConnection``); ``refresh()``
/// swaps now. If nats-server cuts the connection because the token expired or was revoked, it fetches new
/// credentials and reconnects; if the provider refuses, the state becomes ``NatsConnectionState/error(_:)``. Server
/// restarts are left to `NATSClient`, which reconnects and restores the subscriptions (the state shows
/// ``NatsConnectionState/connecting`` meanwhile).
///
/// The logic is ``NatsConnectionManagerStateMachine``; this class only carries out its actions. Logs name token ids,
/// endpoints and expiries, never JWTs, seeds or creds.
@Observable
@MainActor
public final class NatsConnectionManager {
    /// The connection state.
    public private(set) var state: NatsConnectionState = .disconnected
    /// The member's namespaces, once credentials are in use.
    public private(set) var namespace: VaultNamespace?
    /// The token id in use.
    public private(set) var tokenID: String?
    /// When the token in use expires.
    public private(set) var expiresAt: Date?
    /// Completed make-before-break swaps.
    public private(set) var swapCount = 0
    /// Times nats-server refused the token and new credentials were fetched.
    public private(set) var reauthenticationCount = 0
    /// Notices from the device's mailbox handed to ``mailboxHandler`` since this manager was made (docs/protocol.md
    /// 7.5); the messaging status line shows it.
    public private(set) var mailboxArrivals = 0
    /// Receives each notice the vault left in the device's mailbox, once, in order; the message is acknowledged when
    /// it returns, and throwing leaves it (and what follows) for the next catch-up. `nil`: the mailbox is not read.
    @ObservationIgnored public var mailboxHandler: NatsMailbox.Handler?

    /// The configuration.
    @ObservationIgnored public nonisolated let configuration: Configuration
    /// The live connection: publish, request and subscribe from any task.
    @ObservationIgnored public nonisolated let connection: NatsConnection
    /// The member's sealed session, given to every ``ownerSpace()`` client; it outlives swaps and reconnects.
    @ObservationIgnored public nonisolated let sealedSession: VaultSessionChannel?
    /// The device's mailbox: catch-ups, and the notices already handed over (across swaps and reconnects).
    @ObservationIgnored public nonisolated let mailbox: NatsMailbox
    @ObservationIgnored private var mailboxLive: NatsManagedSubscription?
    @ObservationIgnored private var mailboxLiveTask: Task<Void, Never>?
    /// Answers the server's presence question while connected, so it wakes this device with a push only when the
    /// app is away (docs/protocol.md 7.6).
    @ObservationIgnored private var presenceTask: Task<Void, Never>?
    @ObservationIgnored private let provider: any NatsCredentialProvider
    @ObservationIgnored private let store: NatsCredentialStore
    @ObservationIgnored private let logger: Logger
    @ObservationIgnored private var machine: NatsConnectionManagerStateMachine
    @ObservationIgnored private var refreshTimer: Task<Void, Never>?
    @ObservationIgnored private var eventTask: Task<Void, Never>?
    @ObservationIgnored private var stateObservers: [UInt64: AsyncStream<NatsConnectionState>.Continuation] = [:]
    @ObservationIgnored private var nextObserverID: UInt64 = 0

    /// Creates a manager; nothing connects until ``connect()``.
    /// - Parameters:
    ///   - configuration: Timing, TLS, reconnect policy, logger, clock.
    ///   - provider: Issues credentials (`VaultService` of `VettIDClient`, or a test provider).
    ///   - store: Where the current credentials are kept between launches.
    ///   - sealedSession: The member's sealed session for ``OwnerSpaceClient/executeHandler(_:payload:timeout:)``
    ///     (`VettID.natsManager(configuration:)` makes one); `nil` sends handler requests in plaintext.
    public init(
        configuration: Configuration = Configuration(), provider: any NatsCredentialProvider,
        store: NatsCredentialStore, sealedSession: VaultSessionChannel? = nil
    ) {
        self.configuration = configuration
        self.connection = NatsConnection(configuration: configuration)
        self.sealedSession = sealedSession
        self.provider = provider
        self.store = store
        self.logger = configuration.logger
        self.mailbox = NatsMailbox(
            key: { await provider.mailboxPrivateKey() }, inbox: configuration.notificationInbox,
            logger: configuration.logger)
        self.machine = NatsConnectionManagerStateMachine(timing: configuration.timing)
        let events = connection.events
        eventTask = Task { [weak self] in
            for await (tokenID, event) in events {
                guard let self else { return }
                await self.handle(event, tokenID: tokenID)
            }
        }
    }

    deinit {
        eventTask?.cancel()
        mailboxLiveTask?.cancel()
        presenceTask?.cancel()
        refreshTimer?.cancel()
        for observer in stateObservers.values { observer.finish() }
    }

    // MARK: Commands

    /// Pulls what waited in the device's mailbox and hands it to ``mailboxHandler`` (docs/protocol.md 7.5). The
    /// manager does this on every connect and swap and when a message arrives live; call it at launch, from a
    /// background refresh or when a push arrives.
    /// - Returns: What it did; `nil` without a handler, a mailbox in the credentials or a connection, or when a
    ///   catch-up was already running (that one then pulls once more).
    @discardableResult
    public func catchUpMailbox() async -> MailboxCatchUpReport? {
        guard let handler = mailboxHandler, let address = machine.currentCredentials?.mailbox,
            let jetStream = try? connection.jetStream()
        else { return nil }
        do {
            let report = try await mailbox.catchUp(address, over: jetStream, handler: handler)
            if let report {
                mailboxArrivals += report.delivered
                if report.delivered + report.terminated > 0 {
                    logger.info(
                        "NATS: mailbox caught up",
                        metadata: ["delivered": "\(report.delivered)", "terminated": "\(report.terminated)"])
                }
            }
            return report
        } catch {
            logger.warning("NATS: mailbox catch-up failed; the rest waits", metadata: ["error": "\(error.code)"])
            return nil
        }
    }

    /// ``catchUpMailbox()`` that waits its turn: when a catch-up is running (the one a connect started) it asks
    /// again until one of its own has run, within `timeout`.
    /// - Returns: What its own catch-up did; `nil` without a handler, a mailbox or a connection, or after `timeout`.
    public func catchUpMailboxNow(timeout: Duration = .seconds(20)) async -> MailboxCatchUpReport? {
        guard mailboxHandler != nil, machine.currentCredentials?.mailbox != nil else { return nil }
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline, connection.isConnected {
            if let report = await catchUpMailbox() { return report }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return nil
    }

    /// A background launch's catch-up: connects if the manager is not connected, catches up on the mailbox
    /// (``catchUpMailboxNow(timeout:)``), and disconnects again if it was the one that connected. Nothing without a
    /// ``mailboxHandler``.
    public func catchUpMailboxInBackground() async -> MailboxCatchUpReport? {
        guard mailboxHandler != nil else { return nil }
        let wasConnected = state == .connected
        if !wasConnected { await connect() }
        let report = await catchUpMailboxNow()
        if !wasConnected { await disconnect() }
        return report
    }

    /// Listens on the mailbox subject once the credentials name one: a live message starts a catch-up (which
    /// acknowledges it), so the app hears at once and exactly once.
    private func followMailbox() {
        guard mailboxHandler != nil, let address = machine.currentCredentials?.mailbox else { return }
        if mailboxLive?.subject != address.subject {
            mailboxLiveTask?.cancel()
            mailboxLive?.unsubscribe()
            presenceTask?.cancel()
            mailboxLive = try? connection.subscribe(to: address.subject)
            if let live = mailboxLive {
                mailboxLiveTask = Task { [weak self] in
                    for await _ in live {
                        guard let self else { return }
                        await self.catchUpMailbox()
                    }
                }
            }
            if let presence = try? connection.subscribe(to: address.presenceSubject) {
                presenceTask = Task { [connection] in
                    for await question in presence {
                        guard let reply = question.replyTo else { continue }
                        try? connection.publish([], to: reply)
                    }
                }
            }
        }
        Task { await self.catchUpMailbox() }
    }

    /// Connects (loading or fetching credentials first); returns once connected or failed (see ``state``).
    public func connect() async {
        await perform { $0.start() }
    }

    /// Stores `credentials` (for example just issued during setup) and connects with them.
    public func connect(using credentials: NatsCredentials) async {
        do {
            try await store.save(credentials)
        } catch {
            logger.warning("NATS: the credentials could not be stored; they are used for this connection only")
        }
        await connect()
    }

    /// Swaps to fresh credentials now (make-before-break); returns when the swap finished or failed (the current
    /// connection then stays and a retry is scheduled).
    public func refresh() async {
        await perform { [now = configuration.wallClock.now()] in $0.refreshRequested(nil, now: now) }
    }

    /// Swaps to `credentials`, already issued (by `NatsTokenRefreshTask`); ignored unless connected.
    public func refresh(using credentials: NatsCredentials) async {
        await perform { [now = configuration.wallClock.now()] in $0.refreshRequested(credentials, now: now) }
    }

    /// Closes the connection and ends every managed subscription.
    public func disconnect() async {
        await perform { $0.stop() }
    }

    /// Every state change from now on (newest 64 kept per observer), for code that is not SwiftUI.
    public func stateUpdates() -> AsyncStream<NatsConnectionState> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: NatsConnectionState.self, bufferingPolicy: .bufferingNewest(64))
        nextObserverID += 1
        let id = nextObserverID
        stateObservers[id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { @MainActor in self?.stateObservers.removeValue(forKey: id) }
        }
        return stream
    }

    /// The app ↔ vault client over this connection.
    /// - Throws: ``NatsConnectionError`` `not_connected` before credentials are in use.
    public func ownerSpace() throws(NatsConnectionError) -> OwnerSpaceClient {
        guard let namespace = namespace ?? connection.namespace else {
            throw NatsConnectionError(.notConnected, "Connect before using the vault's messaging.")
        }
        return OwnerSpaceClient(connection: connection, namespace: namespace, sealedSession: sealedSession)
    }

    /// The `MessageSpace` client over this connection (for a `vault` token).
    /// - Throws: ``NatsConnectionError`` `not_connected` before credentials are in use.
    public func messageSpace() throws(NatsConnectionError) -> MessageSpaceClient {
        guard let namespace = namespace ?? connection.namespace else {
            throw NatsConnectionError(.notConnected, "Connect before using the message space.")
        }
        return MessageSpaceClient(connection: connection, namespace: namespace)
    }

    // MARK: Carrying out the machine's actions

    private func perform(
        _ event: (inout NatsConnectionManagerStateMachine) -> [NatsConnectionManagerStateMachine.Action]
    ) async {
        let actions = event(&machine)
        publish()
        await run(actions)
    }

    private func handle(_ event: NATSEvent, tokenID: String) async {
        let now = configuration.wallClock.now()
        switch event {
        case .disconnected(let error):
            logger.info(
                "NATS: disconnected",
                metadata: ["nats.token_id": "\(tokenID)", "nats.reason": "\(error?.code.rawValue ?? "none")"])
            await perform { $0.clientDisconnected(tokenID: tokenID, NatsDisconnectReason(error), now: now) }
        case .reconnected:
            logger.info("NATS: reconnected", metadata: ["nats.token_id": "\(tokenID)"])
            await perform { $0.clientReconnected(tokenID: tokenID, now: now) }
            // What the vault stored while the connection was down.
            Task { await self.catchUpMailbox() }
        case .closed(let error):
            await perform { $0.clientClosed(tokenID: tokenID, NatsDisconnectReason(error), now: now) }
        case .error(let error):
            logger.debug(
                "NATS: asynchronous error",
                metadata: ["nats.token_id": "\(tokenID)", "nats.error": "\(error.code.rawValue)"])
        case .connected, .lameDuckMode, .discoveredServers:
            break
        }
    }

    private func run(_ initial: [NatsConnectionManagerStateMachine.Action]) async {
        var queue = initial[...]
        while let action = queue.popFirst() {
            var next: [NatsConnectionManagerStateMachine.Action] = []
            switch action {
            case .loadStoredCredentials:
                let stored = await store.load()
                next = machine.storedCredentialsLoaded(stored, now: configuration.wallClock.now())
            case .fetchCredentials:
                logger.debug("NATS: requesting credentials")
                do {
                    let credentials = try await provider.issueCredentials()
                    logger.info(
                        "NATS: credentials issued",
                        metadata: [
                            "nats.token_id": "\(credentials.tokenID)", "nats.expires_at": "\(credentials.expiresAt)",
                        ])
                    next = machine.credentialsIssued(credentials, now: configuration.wallClock.now())
                } catch {
                    logger.warning("NATS: no credentials", metadata: ["error": "\(Self.summary(of: error))"])
                    next = machine.credentialsFailed(Self.summary(of: error), now: configuration.wallClock.now())
                }
            case .storeCredentials(let credentials):
                do {
                    try await store.save(credentials)
                } catch {
                    logger.warning(
                        "NATS: the credentials could not be stored", metadata: ["error.code": "\(error.code)"])
                }
            case .connect(let credentials):
                do {
                    try await connection.install(credentials, retiring: .close)
                    next = machine.connectSucceeded(now: configuration.wallClock.now())
                    followMailbox()
                } catch {
                    logger.warning(
                        "NATS: connect failed",
                        metadata: ["nats.token_id": "\(credentials.tokenID)", "error": "\(error.message)"])
                    next = machine.connectFailed(
                        NatsDisconnectReason(error.underlying as? NATSError), now: configuration.wallClock.now())
                }
            case .swap(let credentials):
                do {
                    try await connection.install(credentials, retiring: .drain)
                    logger.info("NATS: swapped to a fresh token", metadata: ["nats.token_id": "\(credentials.tokenID)"])
                    next = machine.swapSucceeded(now: configuration.wallClock.now())
                    followMailbox()
                } catch {
                    logger.warning(
                        "NATS: swap failed; the current connection stays", metadata: ["error": "\(error.message)"])
                    next = machine.swapFailed(
                        NatsDisconnectReason(error.underlying as? NATSError), now: configuration.wallClock.now())
                }
            case .dropConnection:
                await connection.drop()
            case .closeConnection:
                await connection.close()
                // Closing ends the connection's subscriptions; the next connect follows the mailbox anew.
                mailboxLiveTask?.cancel()
                mailboxLiveTask = nil
                mailboxLive = nil
                presenceTask?.cancel()
                presenceTask = nil
            case .scheduleRefresh(let delay):
                scheduleRefresh(after: delay)
            case .cancelRefresh:
                refreshTimer?.cancel()
                refreshTimer = nil
            }
            publish()
            queue.append(contentsOf: next)
        }
    }

    private func scheduleRefresh(after delay: Duration) {
        refreshTimer?.cancel()
        let clock = configuration.clock
        logger.debug("NATS: refresh scheduled", metadata: ["nats.refresh_in": "\(delay)"])
        refreshTimer = Task { [weak self] in
            do {
                try await clock.sleep(for: delay)
            } catch {
                return
            }
            // The refresh runs in its own task: cancelling this timer (the refresh reschedules it) must not
            // cancel the refresh.
            Task { @MainActor [weak self] in
                guard let self else { return }
                await self.perform { [now = self.configuration.wallClock.now()] in $0.refreshDue(now: now) }
            }
        }
    }

    private func publish() {
        let credentials = machine.currentCredentials
        if namespace != credentials?.namespace, let credentials { namespace = credentials.namespace }
        if tokenID != credentials?.tokenID { tokenID = credentials?.tokenID }
        if expiresAt != credentials?.expiresAt { expiresAt = credentials?.expiresAt }
        if swapCount != machine.swapCount { swapCount = machine.swapCount }
        if reauthenticationCount != machine.reauthenticationCount {
            reauthenticationCount = machine.reauthenticationCount
        }
        guard state != machine.state else { return }
        state = machine.state
        logger.info("NATS: state \(Self.name(of: machine.state))")
        for observer in stateObservers.values { observer.yield(machine.state) }
    }

    private static func name(of state: NatsConnectionState) -> String {
        switch state {
        case .disconnected: "disconnected"
        case .connecting: "connecting"
        case .connected: "connected"
        case .error(let message): "error: \(message)"
        }
    }

    /// A description of a provider error that cannot carry secrets: an ``APIError``'s code and text, otherwise
    /// the error's type.
    nonisolated static func summary(of error: any Error) -> String {
        if let natsError = error as? NatsConnectionError { return natsError.description }
        return NatsRefreshOutcome.summary(of: error)
    }
}
