// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCore

// The vault's sessions, shared by every worker instance of the process: the async shell over SealedSessionStore.

/// The sessions the vault holds, and the request path over them, for every worker instance of the process.
///
/// One table serves every worker instance, so a session survives a worker instance change, a NATS token swap and a
/// reconnect (it lives here, not in a connection). The logic is ``SealedSessionStore``'s; the table adds the clocks
/// and carries out the waits of sequence admission (until the gap closes, the session is dropped, or the deadline).
/// Sessions are in memory: a restart ends them all, and the apps' next requests get `unknown_session` and run a new
/// handshake.
public actor SealedSessionTable {
    /// The table's bounds and the admission's reorder wait.
    public struct Configuration: Sendable, Hashable {
        /// Sessions kept per device (member and device thumbprint); 4 by default.
        public var maxSessionsPerDevice: Int
        /// Sessions kept in total; 10,000 by default.
        public var maxSessions: Int
        /// How long a request above a gap of sequence numbers waits for the gap; 50 ms by default.
        public var reorderWait: Duration

        /// The defaults.
        public init(
            maxSessionsPerDevice: Int = 4, maxSessions: Int = 10_000, reorderWait: Duration = .milliseconds(50)
        ) {
            self.maxSessionsPerDevice = maxSessionsPerDevice
            self.maxSessions = maxSessions
            self.reorderWait = reorderWait
        }
    }

    /// The bounds.
    public nonisolated let configuration: Configuration
    private let clock: any WallClock
    private var store: SealedSessionStore
    private var waiters: [SessionID: [UInt64: CheckedContinuation<Void, Never>]] = [:]
    private var nextWaiter: UInt64 = 0

    /// An empty table; `clock` decides session expiry and request `exp`.
    public init(configuration: Configuration = .init(), clock: any WallClock = SystemWallClock()) {
        self.configuration = configuration
        self.clock = clock
        self.store = SealedSessionStore(configuration: configuration)
    }

    /// How many sessions are held.
    public var count: Int { store.count }

    /// How many requests wait for a gap of sequence numbers.
    var waitingCount: Int { waiters.values.reduce(0) { $0 + $1.count } }

    /// The session with `id`, if held.
    public func session(_ id: SessionID) -> SealedSession? { store.session(id) }

    /// Holds `session` (see ``SealedSessionStore/insert(_:nowMilliseconds:)`` for what is dropped).
    public func insert(_ session: SealedSession) {
        for id in store.insert(session, nowMilliseconds: clock.sessionMilliseconds) { wakeWaiters(id) }
    }

    /// Drops the session with `id`; requests waiting in it are refused `unknown_session`.
    @discardableResult
    public func remove(_ id: SessionID) -> SealedSession? {
        defer { wakeWaiters(id) }
        return store.remove(id)
    }

    /// Drops every session of `memberGUID`, or only those of one device (when it is revoked). Returns how many.
    @discardableResult
    public func removeSessions(memberGUID: String, deviceThumbprint: String? = nil) -> Int {
        let ids = store.removeSessions(memberGUID: memberGUID, deviceThumbprint: deviceThumbprint)
        for id in ids { wakeWaiters(id) }
        return ids.count
    }

    /// Opens a request envelope received on `OwnerSpace.{memberGUID}.forVault.sealed`; the checks are
    /// ``SealedSessionStore/open(_:memberGUID:nowMilliseconds:now:)``'s. A request above a gap of sequence numbers
    /// waits here up to ``Configuration/reorderWait``.
    public func open(_ bytes: [UInt8], memberGUID: String) async -> SealedRequestOutcome {
        var step = store.open(bytes, memberGUID: memberGUID, nowMilliseconds: clock.sessionMilliseconds, now: .now)
        while true {
            switch step {
            case .finished(let outcome, let advanced):
                if let advanced { wakeWaiters(advanced) }
                return outcome
            case .waiting(let pending, let deadline):
                await wait(in: pending.sessionID, until: deadline)
                step = store.resume(pending, nowMilliseconds: clock.sessionMilliseconds, now: .now)
            }
        }
    }

    private func wait(in id: SessionID, until deadline: ContinuousClock.Instant) async {
        let token = nextWaiter
        nextWaiter += 1
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            waiters[id, default: [:]][token] = continuation
            Task { [weak self] in
                try? await Task.sleep(until: deadline, clock: .continuous)
                await self?.wakeWaiter(id, token)
            }
        }
    }

    private func wakeWaiter(_ id: SessionID, _ token: UInt64) {
        guard let continuation = waiters[id]?.removeValue(forKey: token) else { return }
        if waiters[id]?.isEmpty == true { waiters[id] = nil }
        continuation.resume()
    }

    private func wakeWaiters(_ id: SessionID) {
        guard let sessionWaiters = waiters.removeValue(forKey: id) else { return }
        for continuation in sessionWaiters.values { continuation.resume() }
    }
}
