// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation
public import VettIDClient

/// The pure logic of a ``NatsConnectionManager``: events in, ``Action``s out; no sockets, no clock.
///
/// - Start: use the stored credentials unless they are missing, expired or within the refresh window; otherwise
///   fetch new ones (and store them) before connecting.
/// - Connected: a refresh is scheduled ``Timing/refreshWindow`` before expiry (half the remaining life when less
///   than the window remains, never sooner than ``Timing/minimumRefreshDelay``). When it fires (or on
///   ``refreshRequested(_:now:)``) new credentials are fetched and **swapped** in make-before-break; a fetch or
///   swap that fails keeps the current connection and retries after ``Timing/retryInterval`` (sooner near expiry).
/// - Lost connection: credentials refused by nats-server (expired, revoked, authorization violation) → drop that
///   connection, fetch new credentials once and connect; a provider that refuses, or fresh credentials refused
///   again, end in ``NatsConnectionState/error(_:)``. Any other loss → ``NatsConnectionState/connecting`` while
///   `NATSClient` reconnects by itself (its subscriptions are restored by it), then ``NatsConnectionState/connected``.
///
/// Connection events name the client by the token id of its credentials, so late events of a replaced client are
/// ignored.
public struct NatsConnectionManagerStateMachine: Sendable {
    /// When to refresh.
    public struct Timing: Sendable, Hashable {
        /// Refresh when less than this remains (`NatsCredentials.defaultRefreshWindow`, one hour).
        public var refreshWindow: TimeInterval
        /// Never schedule a refresh sooner than this (one second).
        public var minimumRefreshDelay: TimeInterval
        /// Retry a failed refresh after this long at most (one minute).
        public var retryInterval: TimeInterval

        /// Creates timing settings.
        public init(
            refreshWindow: TimeInterval = NatsCredentials.defaultRefreshWindow,
            minimumRefreshDelay: TimeInterval = 1,
            retryInterval: TimeInterval = 60
        ) {
            self.refreshWindow = refreshWindow
            self.minimumRefreshDelay = minimumRefreshDelay
            self.retryInterval = retryInterval
        }
    }

    /// What the shell must do, in order.
    public enum Action: Sendable, Equatable {
        /// Read the stored credentials, then report ``storedCredentialsLoaded(_:now:)``.
        case loadStoredCredentials
        /// Ask the provider, then report ``credentialsIssued(_:now:)`` or ``credentialsFailed(_:now:)``.
        case fetchCredentials
        /// Keep these credentials in the store.
        case storeCredentials(NatsCredentials)
        /// Connect with these credentials as the only connection (closing a previous one), re-create the managed
        /// subscriptions, then report ``connectSucceeded(now:)`` or ``connectFailed(_:now:)``.
        case connect(NatsCredentials)
        /// Make-before-break to these credentials, then report ``swapSucceeded(now:)`` or ``swapFailed(_:now:)``.
        case swap(to: NatsCredentials)
        /// Close the current connection, keeping the managed subscriptions (its credentials were refused).
        case dropConnection
        /// Close every connection and end the managed subscriptions.
        case closeConnection
        /// Report ``refreshDue(now:)`` after this long (replacing a pending timer).
        case scheduleRefresh(after: Duration)
        /// Cancel the pending refresh timer.
        case cancelRefresh
    }

    enum Purpose: Sendable, Equatable {
        case connect
        case reauthenticate
        case swap(current: NatsCredentials)
    }

    enum Phase: Sendable, Equatable {
        case idle
        case loading
        case fetching(Purpose)
        case connecting(NatsCredentials, fresh: Bool)
        case connected(NatsCredentials)
        case reconnecting(NatsCredentials)
        case swapping(
            current: NatsCredentials, next: NatsCredentials, currentLost: NatsDisconnectReason?,
            nextLost: NatsDisconnectReason?)
        case failed
    }

    /// The timing settings.
    public let timing: Timing
    /// The state to show.
    public private(set) var state: NatsConnectionState = .disconnected
    private(set) var phase: Phase = .idle
    private var refreshPending = false
    /// Completed make-before-break swaps.
    public private(set) var swapCount = 0
    /// Times new credentials were fetched because nats-server refused the current ones.
    public private(set) var reauthenticationCount = 0

    /// Creates the machine (``NatsConnectionState/disconnected``).
    public init(timing: Timing = Timing()) {
        self.timing = timing
    }

    /// The credentials of the connection in use, if any.
    public var currentCredentials: NatsCredentials? {
        switch phase {
        case .connected(let credentials), .reconnecting(let credentials), .swapping(let credentials, _, _, _):
            credentials
        case .fetching(.swap(let credentials)): credentials
        default: nil
        }
    }

    // MARK: Commands

    /// Connect (from disconnected or error).
    public mutating func start() -> [Action] {
        switch phase {
        case .idle, .failed:
            phase = .loading
            state = .connecting
            return [.loadStoredCredentials]
        default:
            return []
        }
    }

    /// Disconnect: close everything.
    public mutating func stop() -> [Action] {
        let wasIdle = phase == .idle
        phase = .idle
        state = .disconnected
        refreshPending = false
        return wasIdle ? [] : [.cancelRefresh, .closeConnection]
    }

    /// Swap now: to `credentials` when given (already issued, e.g. by `NatsTokenRefreshTask`), otherwise to
    /// freshly fetched ones.
    public mutating func refreshRequested(_ credentials: NatsCredentials? = nil, now: Date) -> [Action] {
        switch phase {
        case .connected(let current):
            if let credentials {
                guard credentials.tokenID != current.tokenID, !credentials.isExpired(at: now) else { return [] }
                phase = .swapping(current: current, next: credentials, currentLost: nil, nextLost: nil)
                return [.storeCredentials(credentials), .swap(to: credentials)]
            }
            phase = .fetching(.swap(current: current))
            return [.fetchCredentials]
        case .reconnecting(let current):
            if current.isExpired(at: now) { return reauthenticate() }
            refreshPending = true
            return [
                .scheduleRefresh(
                    after: Self.duration(max(current.remainingLifetime(at: now), timing.minimumRefreshDelay)))
            ]
        default:
            return []
        }
    }

    // MARK: Results of actions

    /// The refresh timer fired.
    public mutating func refreshDue(now: Date) -> [Action] {
        refreshRequested(nil, now: now)
    }

    /// The store answered ``Action/loadStoredCredentials``.
    public mutating func storedCredentialsLoaded(_ credentials: NatsCredentials?, now: Date) -> [Action] {
        guard phase == .loading else { return [] }
        if let credentials, !credentials.shouldRefresh(at: now, refreshWindow: timing.refreshWindow) {
            phase = .connecting(credentials, fresh: false)
            return [.connect(credentials)]
        }
        phase = .fetching(.connect)
        return [.fetchCredentials]
    }

    /// The provider issued credentials.
    public mutating func credentialsIssued(_ credentials: NatsCredentials, now: Date) -> [Action] {
        guard case .fetching(let purpose) = phase else { return [] }
        if credentials.isExpired(at: now) {
            return credentialsFailed("The issued NATS credentials have already expired.", now: now)
        }
        switch purpose {
        case .connect, .reauthenticate:
            phase = .connecting(credentials, fresh: true)
            return [.storeCredentials(credentials), .connect(credentials)]
        case .swap(let current):
            phase = .swapping(current: current, next: credentials, currentLost: nil, nextLost: nil)
            return [.storeCredentials(credentials), .swap(to: credentials)]
        }
    }

    /// The provider refused.
    public mutating func credentialsFailed(_ message: String, now: Date) -> [Action] {
        guard case .fetching(let purpose) = phase else { return [] }
        switch purpose {
        case .connect, .reauthenticate:
            return fail("No NATS credentials: \(message)")
        case .swap(let current):
            // Keep the working connection; try again later (nats-server cuts it off at expiry otherwise).
            phase = .connected(current)
            return [.scheduleRefresh(after: retryDelay(current, now: now))]
        }
    }

    /// ``Action/connect(_:)`` succeeded.
    public mutating func connectSucceeded(now: Date) -> [Action] {
        guard case .connecting(let credentials, _) = phase else { return phase == .idle ? [.closeConnection] : [] }
        phase = .connected(credentials)
        state = .connected
        return [.scheduleRefresh(after: refreshDelay(credentials, now: now))]
    }

    /// ``Action/connect(_:)`` failed.
    public mutating func connectFailed(_ reason: NatsDisconnectReason, now: Date) -> [Action] {
        guard case .connecting(_, let fresh) = phase else { return [] }
        if reason.needsNewCredentials && !fresh { return reauthenticate() }
        switch reason {
        case .credentialsRefused(let code):
            return fail("nats-server refused the credentials (\(code)).")
        case .other(let code):
            return fail("Cannot reach the messaging server\(code.map { " (\($0))" } ?? "").")
        }
    }

    /// ``Action/swap(to:)`` switched publishes and subscriptions to the new connection.
    public mutating func swapSucceeded(now: Date) -> [Action] {
        guard case .swapping(_, let next, _, let nextLost) = phase else {
            return phase == .idle ? [.closeConnection] : []
        }
        swapCount += 1
        phase = .connected(next)
        if let nextLost { return lost(next, reason: nextLost, closed: false) }
        return [.scheduleRefresh(after: refreshDelay(next, now: now))]
    }

    /// ``Action/swap(to:)`` failed; the current connection stays.
    public mutating func swapFailed(_ reason: NatsDisconnectReason, now: Date) -> [Action] {
        guard case .swapping(let current, _, let currentLost, _) = phase else { return [] }
        phase = .connected(current)
        if let currentLost { return lost(current, reason: currentLost, closed: false) }
        return [.scheduleRefresh(after: retryDelay(current, now: now))]
    }

    // MARK: Connection events

    /// The client of `tokenID` lost its connection.
    public mutating func clientDisconnected(tokenID: String, _ reason: NatsDisconnectReason, now: Date) -> [Action] {
        switch phase {
        case .connected(let current) where current.tokenID == tokenID:
            return lost(current, reason: reason, closed: false)
        case .swapping(let current, let next, let currentLost, let nextLost):
            if current.tokenID == tokenID {
                phase = .swapping(current: current, next: next, currentLost: reason, nextLost: nextLost)
            } else if next.tokenID == tokenID {
                phase = .swapping(current: current, next: next, currentLost: currentLost, nextLost: reason)
            }
            return []
        case .reconnecting(let current) where current.tokenID == tokenID && reason.needsNewCredentials:
            return reauthenticate()
        default:
            return []
        }
    }

    /// The client of `tokenID` reconnected by itself (and restored its subscriptions).
    public mutating func clientReconnected(tokenID: String, now: Date) -> [Action] {
        switch phase {
        case .reconnecting(let current) where current.tokenID == tokenID:
            phase = .connected(current)
            state = .connected
            if refreshPending || current.shouldRefresh(at: now, refreshWindow: timing.refreshWindow) {
                refreshPending = false
                phase = .fetching(.swap(current: current))
                return [.fetchCredentials]
            }
            return []
        case .swapping(let current, let next, let currentLost, let nextLost):
            phase = .swapping(
                current: current,
                next: next,
                currentLost: current.tokenID == tokenID ? nil : currentLost,
                nextLost: next.tokenID == tokenID ? nil : nextLost
            )
            return []
        default:
            return []
        }
    }

    /// The client of `tokenID` closed for good (it gave up reconnecting, or a fatal error).
    public mutating func clientClosed(tokenID: String, _ reason: NatsDisconnectReason, now: Date) -> [Action] {
        switch phase {
        case .connected(let current) where current.tokenID == tokenID:
            return lost(current, reason: reason, closed: true)
        case .reconnecting(let current) where current.tokenID == tokenID:
            return lost(current, reason: reason, closed: true)
        default:
            return []
        }
    }

    // MARK: Helpers

    private mutating func lost(_ current: NatsCredentials, reason: NatsDisconnectReason, closed: Bool) -> [Action] {
        if reason.needsNewCredentials { return reauthenticate() }
        if closed { return fail("The connection to the messaging server was lost.") }
        phase = .reconnecting(current)
        state = .connecting
        return []
    }

    private mutating func reauthenticate() -> [Action] {
        reauthenticationCount += 1
        phase = .fetching(.reauthenticate)
        state = .connecting
        refreshPending = false
        return [.cancelRefresh, .dropConnection, .fetchCredentials]
    }

    private mutating func fail(_ message: String) -> [Action] {
        phase = .failed
        state = .error(message)
        refreshPending = false
        return [.cancelRefresh, .dropConnection]
    }

    /// When to refresh `credentials`: ``Timing/refreshWindow`` before expiry, or half the remaining life when
    /// less than the window remains; at least ``Timing/minimumRefreshDelay``.
    public func refreshDelay(_ credentials: NatsCredentials, now: Date) -> Duration {
        let remaining = credentials.remainingLifetime(at: now)
        let lead = remaining > timing.refreshWindow ? remaining - timing.refreshWindow : remaining / 2
        return Self.duration(max(lead, timing.minimumRefreshDelay))
    }

    func retryDelay(_ credentials: NatsCredentials, now: Date) -> Duration {
        let remaining = credentials.remainingLifetime(at: now)
        return Self.duration(max(min(timing.retryInterval, remaining / 2), timing.minimumRefreshDelay))
    }

    static func duration(_ seconds: TimeInterval) -> Duration {
        .milliseconds(Int64((max(0, seconds) * 1000).rounded(.up)))
    }
}
