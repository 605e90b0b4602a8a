// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCore

// The vault's sessions, shared by every worker instance of the process, and the async shell of sequence admission.

/// The sessions the vault holds, bounded per device and in total, and the request path over them.
///
/// One table serves every worker instance of the process, so a session survives a worker instance change, a NATS
/// token swap and a reconnect (it lives here, not in a connection). A device keeps at most
/// ``Configuration/maxSessionsPerDevice`` sessions (its oldest is dropped); beyond ``Configuration/maxSessions``
/// the least recently used session is dropped. Sessions are in memory: a restart ends them all, and the apps'
/// next requests get `unknown_session` and run a new handshake.
public actor VaultSessionTable {
    /// The table's bounds and the admission's reorder wait.
    public struct Configuration: Sendable, Hashable {
        /// Sessions kept per device (member and device thumbprint); 4 by default.
        public var maxSessionsPerDevice: Int
        /// Sessions kept in total; 10,000 by default.
        public var maxSessions: Int
        /// How long a request above a gap of sequence numbers waits for the gap; 50 ms by default.
        public var reorderWait: Duration

        /// The defaults.
        public init(maxSessionsPerDevice: Int = 4, maxSessions: Int = 10_000, reorderWait: Duration = .milliseconds(50))
        {
            self.maxSessionsPerDevice = maxSessionsPerDevice
            self.maxSessions = maxSessions
            self.reorderWait = reorderWait
        }
    }

    private struct Entry {
        var session: VaultSession
        var admission: SequenceAdmission
        var lastUsed: UInt64
    }

    private struct Device: Hashable {
        let memberGUID: String
        let thumbprint: String
    }

    /// The bounds.
    public let configuration: Configuration
    private let clock: any WallClock
    private var entries: [SessionID: Entry] = [:]
    private var byDevice: [Device: [SessionID]] = [:]
    private var tick: UInt64 = 0
    private var waiters: [SessionID: [UInt64: CheckedContinuation<Void, Never>]] = [:]
    private var nextWaiter: UInt64 = 0

    /// An empty table; `clock` decides session expiry and request `exp`.
    public init(configuration: Configuration = .init(), clock: any WallClock = SystemWallClock()) {
        precondition(configuration.maxSessionsPerDevice >= 1 && configuration.maxSessions >= 1, "bounds are at least 1")
        self.configuration = configuration
        self.clock = clock
    }

    /// How many sessions are held.
    public var count: Int { entries.count }

    /// How many requests wait for a gap of sequence numbers.
    var waitingCount: Int { waiters.values.reduce(0) { $0 + $1.count } }

    /// The session with `id`, if held.
    public func session(_ id: SessionID) -> VaultSession? { entries[id]?.session }

    /// Holds `session`, dropping its device's oldest beyond the per-device bound and the least recently used
    /// sessions beyond the total bound (expired ones first).
    public func insert(_ session: VaultSession) {
        remove(session.id)
        tick += 1
        entries[session.id] = Entry(
            session: session,
            admission: SequenceAdmission(maxMessages: session.maxMessages, reorderWait: configuration.reorderWait),
            lastUsed: tick)
        let device = Device(memberGUID: session.memberGUID, thumbprint: session.deviceThumbprint)
        byDevice[device, default: []].append(session.id)
        while let ids = byDevice[device], ids.count > configuration.maxSessionsPerDevice { remove(ids[0]) }
        if entries.count > configuration.maxSessions {
            let now = clock.unixMilliseconds
            for (id, entry) in entries where entry.session.isExpired(atMilliseconds: now) { remove(id) }
        }
        while entries.count > configuration.maxSessions,
            let oldest = entries.min(by: { $0.value.lastUsed < $1.value.lastUsed })?.key
        {
            remove(oldest)
        }
    }

    /// Drops the session with `id`; requests waiting in it are refused `unknown_session`.
    @discardableResult
    public func remove(_ id: SessionID) -> VaultSession? {
        guard let entry = entries.removeValue(forKey: id) else { return nil }
        let device = Device(memberGUID: entry.session.memberGUID, thumbprint: entry.session.deviceThumbprint)
        byDevice[device]?.removeAll { $0 == id }
        if byDevice[device]?.isEmpty == true { byDevice[device] = nil }
        wakeWaiters(id)
        return entry.session
    }

    /// Drops every session of `memberGUID`, or only those of one device (when it is revoked). Returns how many.
    @discardableResult
    public func removeSessions(memberGUID: String, deviceThumbprint: String? = nil) -> Int {
        let ids = entries.filter { _, entry in
            entry.session.memberGUID == memberGUID
                && (deviceThumbprint == nil || entry.session.deviceThumbprint == deviceThumbprint)
        }.map(\.key)
        for id in ids { remove(id) }
        return ids.count
    }

    /// Opens a request envelope received on `OwnerSpace.{memberGUID}.forVault.sealed`.
    ///
    /// Checks, in order: header layout (`malformed_envelope`), version (`unsupported_version`), flags
    /// (`malformed_envelope`), the session is held for this member (`unknown_session`), lifetime and limit
    /// (`session_expired`), suite (`suite_mismatch`), AEAD (`bad_envelope`), padding (`bad_padding`), sequence
    /// admission (`replayed`, `out_of_order`; may wait up to ``Configuration/reorderWait``), the inner request
    /// (`malformed_message`), its `exp` (`request_expired`). Refusals before admission and `replayed` are answered
    /// with a plaintext ``SessionRefusal``; later ones are sealed.
    public func open(_ bytes: [UInt8], memberGUID: String) async -> VaultRequestOutcome {
        let envelope: SessionEnvelope
        do {
            envelope = try SessionEnvelope(parsing: bytes)
        } catch {
            return Self.plain(error)
        }
        guard !envelope.header.isResponse else {
            return Self.plain(SessionError(.malformedEnvelope, "a request must not have the response flag"))
        }
        let id = envelope.header.sessionID
        guard let session = entries[id]?.session, session.memberGUID == memberGUID else {
            return Self.plain(SessionError(.unknownSession, "no such session for this member"))
        }
        tick += 1
        entries[id]?.lastUsed = tick
        let inner: [UInt8]
        do {
            inner = try session.open(envelope, nowMilliseconds: clock.unixMilliseconds)
        } catch {
            if session.isExpired(atMilliseconds: clock.unixMilliseconds) { remove(id) }
            return Self.plain(error)
        }
        let sequence = envelope.header.sequence
        let sealer = SessionResponseSealer(channel: session.channel, sequence: sequence)
        switch await admit(id, sequence) {
        case .admit:
            break
        case .refuse(let code) where code == .outOfOrder:
            let error = SessionError(.outOfOrder, "sequence \(sequence) arrived after a higher one was admitted")
            return Self.sealed(error, id: SessionInnerRequest.requestID(in: inner), sealer: sealer)
        case .refuse(let code):
            return Self.plain(SessionError(code, Self.refusalMessage(code)))
        case .wait:
            preconditionFailure("admit(_:_:) returns only after the wait")
        }
        let request: SessionInnerRequest
        do {
            request = try SessionInnerRequest(decoding: inner)
        } catch {
            return Self.sealed(error, id: SessionInnerRequest.requestID(in: inner), sealer: sealer)
        }
        guard UInt64(clamping: max(request.expiresAtMilliseconds, 0)) > clock.unixMilliseconds else {
            let error = SessionError(.requestExpired, "the request's exp has passed")
            return Self.sealed(error, id: request.id, sealer: sealer)
        }
        return .admitted(AdmittedSessionRequest(request: request, session: session, sealer: sealer))
    }

    // MARK: Admission shell

    /// Runs the session's ``SequenceAdmission`` for `sequence`, waiting when it says so: until another number of
    /// the session is admitted (the gap may have closed), the session is dropped, or the deadline.
    private func admit(_ id: SessionID, _ sequence: UInt64) async -> SequenceAdmission.Decision {
        guard var decision = entries[id]?.admission.receive(sequence, now: .now) else {
            return .refuse(.unknownSession)
        }
        while case .wait(let deadline) = decision {
            await wait(in: id, until: deadline)
            guard let next = entries[id]?.admission.resume(sequence, now: .now) else { return .refuse(.unknownSession) }
            decision = next
        }
        if decision == .admit { wakeWaiters(id) }
        return decision
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

    // MARK: Replies

    private static func plain(_ error: SessionError) -> VaultRequestOutcome {
        .refused(error, reply: SessionRefusal(error).bytes, sealed: false)
    }

    private static func sealed(_ error: SessionError, id: String?, sealer: SessionResponseSealer) -> VaultRequestOutcome
    {
        guard let reply = try? sealer.seal(.failure(id: id, error: SessionHandlerError(error))) else {
            return plain(error)
        }
        return .refused(error, reply: reply, sealed: true)
    }

    private static func refusalMessage(_ code: SessionError.Code) -> String {
        switch code {
        case .replayed: "this sequence number was already received"
        case .unknownSession: "the session ended while the request waited"
        case .sessionExpired: "the session's requests are used"
        default: "the request was refused"
        }
    }
}
