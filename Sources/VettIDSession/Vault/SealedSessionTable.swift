// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCore
import VettIDCrypto

// The vault's sessions, shared by every worker instance of the process: the locked shell over SealedSessionStore.

/// The sessions the vault holds, and the request path over them, for every worker instance of the process.
///
/// One table serves every worker instance, so a session survives a worker instance change, a NATS token swap and a
/// reconnect (it lives here, not in a connection). The logic is ``SealedSessionStore``'s; the table adds the clocks
/// and the lock. Sessions are in memory: a restart ends them all, and the apps' next requests get `unknown_session` and run a new
/// handshake.
///
/// The store sits behind a lock rather than in an actor: a request is opened on the worker's own thread, without a
/// hop to another executor and back, and sequence admission never waits (``SequenceAdmission``).
public final class SealedSessionTable: Sendable {
    /// The table's bounds and the admission's reorder wait.
    public struct Configuration: Sendable, Hashable {
        /// Sessions kept per device (member and device thumbprint); 4 by default.
        public var maxSessionsPerDevice: Int
        /// Sessions kept in total; 10,000 by default.
        public var maxSessions: Int
        /// How long the numbers skipped by an admission stay admissible (requests of one session read in another
        /// order by two worker instances); 50 ms by default.
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
    public let configuration: Configuration
    private let clock: any WallClock
    private let store: LockedValue<SealedSessionStore>

    /// An empty table; `clock` decides session expiry and request `exp`.
    public init(configuration: Configuration = .init(), clock: any WallClock = SystemWallClock()) {
        self.configuration = configuration
        self.clock = clock
        self.store = LockedValue(SealedSessionStore(configuration: configuration))
    }

    /// How many sessions are held.
    public var count: Int { store.withLock { $0.count } }

    /// The session with `id`, if held.
    public func session(_ id: SessionID) -> SealedSession? { store.withLock { $0.session(id) } }

    /// Holds `session` (see ``SealedSessionStore/insert(_:nowMilliseconds:)`` for what is dropped).
    public func insert(_ session: SealedSession) {
        let now = clock.sessionMilliseconds
        store.withLock { _ = $0.insert(session, nowMilliseconds: now) }
    }

    /// Drops the session with `id`.
    @discardableResult
    public func remove(_ id: SessionID) -> SealedSession? {
        store.withLock { $0.remove(id) }
    }

    /// Drops every session of `memberGUID`, or only those of one device (when it is revoked). Returns how many.
    @discardableResult
    public func removeSessions(memberGUID: String, deviceThumbprint: String? = nil) -> Int {
        store.withLock { $0.removeSessions(memberGUID: memberGUID, deviceThumbprint: deviceThumbprint).count }
    }

    /// Opens a request envelope received on `OwnerSpace.{memberGUID}.forVault.sealed`; the checks are
    /// ``SealedSessionStore/open(_:memberGUID:nowMilliseconds:now:)``'s. Nothing waits.
    public func open(_ bytes: [UInt8], memberGUID: String) -> SealedRequestOutcome {
        let nowMilliseconds = clock.sessionMilliseconds
        return store.withLock { $0.open(bytes, memberGUID: memberGUID, nowMilliseconds: nowMilliseconds, now: .now) }
    }
}
