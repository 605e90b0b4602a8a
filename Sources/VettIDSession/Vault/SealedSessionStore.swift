// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import VettIDCore

// The vault's sessions and the request path over them, as a pure state machine: time is an input.

/// The sessions the vault holds and the checks of a request envelope, without concurrency and without sleeping.
///
/// ``SealedSessionTable`` wraps one store in a lock and shares it between the worker instances of the process; a test or a fuzz target drives a store directly. A device keeps at most
/// ``SealedSessionTable/Configuration/maxSessionsPerDevice`` sessions (its oldest is dropped); beyond
/// ``SealedSessionTable/Configuration/maxSessions`` the least recently used session is dropped (expired ones first).
public struct SealedSessionStore: Sendable {
    private struct Entry {
        var session: SealedSession
        var admission: SequenceAdmission
        var lastUsed: UInt64
    }

    private struct Device: Hashable {
        let memberGUID: String
        let thumbprint: String
    }

    /// The bounds and the reorder wait.
    public let configuration: SealedSessionTable.Configuration
    private var entries: [SessionID: Entry] = [:]
    private var byDevice: [Device: [SessionID]] = [:]
    private var tick: UInt64 = 0

    /// An empty store.
    public init(configuration: SealedSessionTable.Configuration = .init()) {
        precondition(configuration.maxSessionsPerDevice >= 1 && configuration.maxSessions >= 1, "bounds are at least 1")
        self.configuration = configuration
    }

    /// How many sessions are held.
    public var count: Int { entries.count }

    /// The session with `id`, if held.
    public func session(_ id: SessionID) -> SealedSession? { entries[id]?.session }

    /// Holds `session`, dropping its device's oldest beyond the per-device bound and the least recently used sessions
    /// beyond the total bound (expired ones first).
    /// - Returns: the ids of the sessions dropped.
    @discardableResult
    public mutating func insert(_ session: SealedSession, nowMilliseconds: UInt64) -> [SessionID] {
        var dropped: [SessionID] = []
        if remove(session.id) != nil { dropped.append(session.id) }
        tick += 1
        entries[session.id] = Entry(
            session: session,
            admission: SequenceAdmission(maxMessages: session.maxMessages, reorderWait: configuration.reorderWait),
            lastUsed: tick)
        let device = Device(memberGUID: session.memberGUID, thumbprint: session.deviceThumbprint)
        byDevice[device, default: []].append(session.id)
        while let ids = byDevice[device], ids.count > configuration.maxSessionsPerDevice {
            remove(ids[0])
            dropped.append(ids[0])
        }
        if entries.count > configuration.maxSessions {
            for (id, entry) in entries where entry.session.isExpired(atMilliseconds: nowMilliseconds) {
                remove(id)
                dropped.append(id)
            }
        }
        while entries.count > configuration.maxSessions,
            let oldest = entries.min(by: { $0.value.lastUsed < $1.value.lastUsed })?.key
        {
            remove(oldest)
            dropped.append(oldest)
        }
        return dropped
    }

    /// Drops the session with `id`.
    @discardableResult
    public mutating func remove(_ id: SessionID) -> SealedSession? {
        guard let entry = entries.removeValue(forKey: id) else { return nil }
        let device = Device(memberGUID: entry.session.memberGUID, thumbprint: entry.session.deviceThumbprint)
        byDevice[device]?.removeAll { $0 == id }
        if byDevice[device]?.isEmpty == true { byDevice[device] = nil }
        return entry.session
    }

    /// Drops every session of `memberGUID`, or only those of one device (when it is revoked).
    /// - Returns: the ids of the sessions dropped.
    @discardableResult
    public mutating func removeSessions(memberGUID: String, deviceThumbprint: String? = nil) -> [SessionID] {
        let ids = entries.filter { _, entry in
            entry.session.memberGUID == memberGUID
                && (deviceThumbprint == nil || entry.session.deviceThumbprint == deviceThumbprint)
        }.map(\.key)
        for id in ids { remove(id) }
        return ids
    }

    /// Takes a request envelope received on `OwnerSpace.{memberGUID}.forVault.sealed`, at `nowMilliseconds` (the wall
    /// clock: lifetimes and `exp`) and `now` (the monotonic clock: the reorder wait).
    ///
    /// Checks, in order: header layout (`malformed_envelope`), version (`unsupported_version`), flags
    /// (`malformed_envelope`), the session is held for this member (`unknown_session`), lifetime and limit
    /// (`session_expired`; an expired session is dropped), suite (`suite_mismatch`), AEAD (`bad_envelope`), padding
    /// (`bad_padding`, `message_too_large`), sequence admission (`replayed`, `out_of_order`), the inner
    /// request (`malformed_message`), its `exp` (`request_expired`). Refusals before admission and `replayed` are
    /// answered with a plaintext ``SessionRefusal``; later ones are sealed.
    public mutating func open(
        _ bytes: [UInt8], memberGUID: String, nowMilliseconds: UInt64, now: ContinuousClock.Instant
    ) -> SealedRequestOutcome {
        let envelope: SessionEnvelope
        do {
            envelope = try SessionEnvelope(parsing: bytes)
        } catch {
            return Self.plain(error)
        }
        guard !envelope.header.isResponse else {
            let error = SessionError(.malformedEnvelope, "a request must not have the response flag")
            return Self.plain(error)
        }
        let id = envelope.header.sessionID
        guard let session = entries[id]?.session, session.memberGUID == memberGUID else {
            return Self.plain(SessionError(.unknownSession, "no such session for this member"))
        }
        tick += 1
        entries[id]?.lastUsed = tick
        let inner: [UInt8]
        do {
            inner = try session.open(envelope, nowMilliseconds: nowMilliseconds)
        } catch {
            if session.isExpired(atMilliseconds: nowMilliseconds) { remove(id) }
            return Self.plain(error)
        }
        let pending = PendingSessionRequest(
            session: session, inner: inner,
            sealer: SessionResponseSealer(channel: session.channel, sequence: envelope.header.sequence))
        let decision = entries[id]?.admission.receive(pending.sequence, now: now) ?? .refuse(.unknownSession)
        switch decision {
        case .admit:
            return Self.admitted(pending, nowMilliseconds: nowMilliseconds)
        case .refuse(let code) where code == .outOfOrder:
            let error = SessionError(
                .outOfOrder, "sequence \(pending.sequence) arrived too long after a higher one was admitted")
            return Self.sealed(error, id: SessionInnerRequest.requestID(in: pending.inner), pending)
        case .refuse(let code):
            return Self.plain(SessionError(code, Self.refusalMessage(code)))
        }
    }

    /// The checks after admission: the inner request and its `exp`.
    private static func admitted(_ pending: PendingSessionRequest, nowMilliseconds: UInt64) -> SealedRequestOutcome {
        let request: SessionInnerRequest
        do {
            request = try SessionInnerRequest(decoding: pending.inner)
        } catch {
            return sealed(error, id: SessionInnerRequest.requestID(in: pending.inner), pending)
        }
        guard UInt64(clamping: max(request.expiresAtMilliseconds, 0)) > nowMilliseconds else {
            return sealed(SessionError(.requestExpired, "the request's exp has passed"), id: request.id, pending)
        }
        return .admitted(AdmittedSessionRequest(request: request, session: pending.session, sealer: pending.sealer))
    }

    private static func plain(_ error: SessionError) -> SealedRequestOutcome {
        .refused(error, reply: SessionRefusal(error).bytes, sealed: false)
    }

    private static func sealed(_ error: SessionError, id: String?, _ pending: PendingSessionRequest)
        -> SealedRequestOutcome
    {
        guard let reply = try? pending.sealer.seal(.failure(id: id, error: SessionHandlerError(error))) else {
            return plain(error)
        }
        return .refused(error, reply: reply, sealed: true)
    }

    private static func refusalMessage(_ code: SessionError.Code) -> String {
        switch code {
        case .replayed: "this sequence number was already received"
        case .sessionExpired: "the session's requests are used"
        default: "the request was refused"
        }
    }
}

/// A request whose envelope opened, before its sequence admission.
struct PendingSessionRequest: Sendable {
    let session: SealedSession
    let inner: [UInt8]
    let sealer: SessionResponseSealer

    /// The request's sequence number.
    var sequence: UInt64 { sealer.sequence }
}
