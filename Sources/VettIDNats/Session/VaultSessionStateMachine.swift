// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import VettIDCore
import VettIDSession

// The decisions of the app's sealed session with its vault, without NATS or cryptography: when to run a handshake,
// who waits for it, and what to do with a refused request.

/// What the state machine needs of an established session.
protocol VaultSessionHandle: AnyObject, Sendable {
    /// Whether a request sealed now, valid for `margin`, is inside the session's lifetime and request limit.
    func isUsable(margin: Duration) -> Bool
}

extension SealedSessionClient: VaultSessionHandle {}

/// The app's sealed session with the member's vault as a pure state machine; ``VaultSessionChannel`` carries out
/// its actions.
///
/// - One session at a time: used while ``VaultSessionHandle/isUsable(margin:)`` holds for the renewal margin,
///   renewed (a new handshake) once it does not (its lifetime is within the margin, or its requests are used up).
/// - One handshake in flight: callers arriving while it runs wait for it and share its outcome.
/// - A refused request is retried at most once per cause: `session_expired`, `unknown_session` and NATS
///   no-responders drop the session and retry over a new one; `out_of_order` retries in the same session with a
///   fresh sequence number; anything else fails.
/// - A handshake answered by an unpinned vault key refreshes the pinned keys once, then fails.
struct VaultSessionStateMachine<Session: VaultSessionHandle> {
    enum State {
        /// No session.
        case idle
        /// A handshake runs; these waiters wait for its outcome.
        case handshaking(waiters: [UInt64])
        /// A session is established.
        case established(Session)
    }

    /// What a caller who needs a session does.
    enum AcquireAction {
        /// Use this session.
        case use(Session)
        /// Run the handshake, then report it with ``handshakeFinished(_:)``.
        case startHandshake
        /// Wait: the handshake in flight resumes this waiter.
        case wait
    }

    /// What to do after a request was refused or failed.
    enum Recovery: Equatable {
        /// Drop to a new session (a new handshake) and send the request again.
        case renew
        /// Send the request again in the same session, with a fresh sequence number.
        case retry
        /// Give up: throw the error.
        case fail
    }

    /// What to do after the handshake's response was refused.
    enum HandshakeRecovery: Equatable {
        /// Refresh the pinned vault keys and complete the same response again.
        case refreshKeys
        /// Give up: throw the error.
        case fail
    }

    /// The retries one request has used.
    struct Attempt: Equatable {
        /// The request was already sent again over a new session.
        var renewed = false
        /// The request was already sent again after `out_of_order`.
        var reordered = false
    }

    /// The code NATS no-responders are reported with.
    static var noResponders: String { "no_responders" }

    /// The state.
    private(set) var state: State = .idle
    /// How long before its end (and its request `exp`) a session is renewed.
    let renewalMargin: Duration

    init(renewalMargin: Duration) {
        self.renewalMargin = renewalMargin
    }

    /// A caller needs a session; `waiter` names it should it have to wait.
    mutating func acquire(waiter: UInt64) -> AcquireAction {
        switch state {
        case .established(let session) where session.isUsable(margin: renewalMargin):
            return .use(session)
        case .idle, .established:
            state = .handshaking(waiters: [])
            return .startHandshake
        case .handshaking(var waiters):
            waiters.append(waiter)
            state = .handshaking(waiters: waiters)
            return .wait
        }
    }

    /// The handshake ended with `session` (nil: it failed). Returns the waiters to resume with its outcome.
    mutating func handshakeFinished(_ session: Session?) -> [UInt64] {
        guard case .handshaking(let waiters) = state else { return [] }
        state = session.map(State.established) ?? .idle
        return waiters
    }

    /// A request sent in `session` was refused with `code` (a ``SessionError`` code, a sealed failure's code, or
    /// ``noResponders``); `attempt` records the retry this decides.
    mutating func requestRefused(_ code: String, in session: Session, attempt: inout Attempt) -> Recovery {
        switch code {
        case SessionError.Code.sessionExpired.rawValue, SessionError.Code.unknownSession.rawValue, Self.noResponders:
            guard !attempt.renewed else { return .fail }
            attempt.renewed = true
            drop(session)
            return .renew
        case SessionError.Code.outOfOrder.rawValue:
            guard !attempt.reordered else { return .fail }
            attempt.reordered = true
            return .retry
        default:
            return .fail
        }
    }

    /// Forgets `session` if it is the current one (a caller that already renewed keeps its new session).
    mutating func drop(_ session: Session) {
        if case .established(let current) = state, current === session { state = .idle }
    }

    /// The handshake's response was refused with `code`; `keysRefreshed` says whether the pinned keys were already
    /// refreshed for this handshake.
    static func handshakeRefused(_ code: String, keysRefreshed: Bool) -> HandshakeRecovery {
        code == SessionError.Code.vaultKeyNotPinned.rawValue && !keysRefreshed ? .refreshKeys : .fail
    }
}
