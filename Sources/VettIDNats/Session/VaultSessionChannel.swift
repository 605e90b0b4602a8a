// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import NATSClient
import NIOCore
public import VettIDClient
public import VettIDCore
public import VettIDCrypto
public import VettIDMessaging
public import VettIDSession

// The app's sealed session with its vault over NATS: the thin shell over VaultSessionStateMachine, behind a lock.

/// The app's sealed session with the member's vault (docs/protocol.md §7.3), opened on first use and renewed by
/// itself; ``OwnerSpaceClient/executeHandler(_:payload:timeout:)`` sends its requests through it.
///
/// - The first request runs a handshake: a signed init to `OwnerSpace.{guid}.forVault.session` (reply in the app's
///   inbox), the vault's response checked against the pinned vault keys. A response signed by a key that is not
///   pinned refreshes the pinned set once (``Dependencies/refreshPinnedKeys``) and is checked again.
/// - Requests are sealed and sent to `OwnerSpace.{guid}.forVault.sealed.{route}`, the vault instance holding the
///   session.
/// - The session is renewed (a new handshake) before its `expires_at` (``Configuration/renewalMargin``) or when
///   its requests are used up, and on a `session_expired` or `unknown_session` refusal or NATS no-responders (the
///   vault instance restarted): once per request, transparently. An `out_of_order` refusal is sent again with a
///   fresh sequence number, once. Concurrent callers share one handshake.
/// - The session is independent of the NATS connection: it survives token swaps and reconnects.
///
/// The decisions are an internal, unit-tested state machine's; this type carries them out. One channel serves one
/// member. It is a lock rather than an actor, so a request on an established session runs on the caller's executor
/// without a hop; only the handshake is shared (concurrent callers wait for one). Requests of one session may be
/// published in another order than their sequence numbers when several tasks send at once: the vault admits them
/// within its reorder window (docs/protocol.md §7.3).
public final class VaultSessionChannel: Sendable {
    /// The session's timing and suites.
    public struct Configuration: Sendable {
        /// How long before the session's end it is renewed; at least the requests' validity. 60 s by default.
        public var renewalMargin: Duration
        /// How long the vault may still run a request (its `exp`); 30 s by default.
        public var requestValidity: Duration
        /// The suites offered, most preferred first; every suite this platform runs by default.
        public var suites: [SessionSuite]
        /// The clock the session's lifetime and the requests' `exp` are read from.
        public var clock: any WallClock

        /// The defaults.
        public init(
            renewalMargin: Duration = .seconds(60), requestValidity: Duration = .seconds(30),
            suites: [SessionSuite] = SessionSuite.available, clock: any WallClock = SystemWallClock()
        ) {
            self.renewalMargin = renewalMargin
            self.requestValidity = requestValidity
            self.suites = suites
            self.clock = clock
        }
    }

    /// Where the session's keys come from (the facade wires `VaultService` and the device key store).
    public struct Dependencies: Sendable {
        /// The enrolled device key, which signs the handshake init.
        public var deviceSigner: @Sendable () async throws -> any DPoPSigner
        /// The pinned vault keys (stored with the credential).
        public var pinnedKeys: @Sendable () async throws -> PinnedVaultKeys
        /// Fetches the pinned vault keys again over the API and stores them.
        public var refreshPinnedKeys: @Sendable () async throws -> PinnedVaultKeys

        /// Wires the three.
        public init(
            deviceSigner: @escaping @Sendable () async throws -> any DPoPSigner,
            pinnedKeys: @escaping @Sendable () async throws -> PinnedVaultKeys,
            refreshPinnedKeys: @escaping @Sendable () async throws -> PinnedVaultKeys
        ) {
            self.deviceSigner = deviceSigner
            self.pinnedKeys = pinnedKeys
            self.refreshPinnedKeys = refreshPinnedKeys
        }

        /// The vault service's pinned keys and the device key store's key.
        public init(vault: VaultService, deviceKeyStore: any DeviceKeyStore) {
            self.init(
                deviceSigner: { try await deviceKeyStore.deviceKey().signer },
                pinnedKeys: { try await vault.pinnedVaultKeys() },
                refreshPinnedKeys: { try await vault.refreshPinnedVaultKeys() })
        }
    }

    private struct State: Sendable {
        var machine: VaultSessionStateMachine<SealedSessionClient>
        var waiters: [UInt64: CheckedContinuation<SealedSessionClient, any Error>] = [:]
        /// Handshake results for waiters that had not suspended yet when the handshake finished.
        var early: [UInt64: Result<SealedSessionClient, NatsConnectionError>] = [:]
        var nextWaiter: UInt64 = 0
        var memberGUID: String?
        var handshakeCount = 0
    }

    /// The configuration.
    public let configuration: Configuration
    private let dependencies: Dependencies
    private let state: LockedValue<State>

    /// A channel with no session yet.
    public init(configuration: Configuration = .init(), dependencies: Dependencies) {
        self.configuration = configuration
        self.dependencies = dependencies
        self.state = LockedValue(
            State(machine: VaultSessionStateMachine(renewalMargin: max(configuration.renewalMargin, .zero))))
    }

    /// Handshakes started (tests and diagnostics).
    public var handshakeCount: Int { state.withLock { $0.handshakeCount } }

    /// The established session, if any (its id, suite and limits; tests and diagnostics).
    public var currentSession: SealedSessionClient? {
        state.withLock { if case .established(let session) = $0.machine.state { session } else { nil } }
    }

    /// Runs `handler` with `body` in the vault over the sealed session and returns the vault's inner response.
    /// - Throws: ``NatsConnectionError``: `timeout`, `not_connected`, `no_responders` (no vault answers the
    ///   handshake, or still none after a new one), `invalid_subject` (another member than the channel's), or a
    ///   session error's code (`vault_key_not_pinned` after one refresh of the pinned keys, `bad_vault_signature`,
    ///   `suite_downgrade`, `unknown_device`, `session_expired` after one renewal, …) with the `SessionError` of
    ///   VettIDSession as underlying error.
    nonisolated(nonsending) public func execute(
        handler: String, body: JSONValue, namespace: VaultNamespace, connection: NatsConnection,
        timeout: Duration? = nil
    ) async throws(NatsConnectionError) -> SessionInnerResponse {
        try state.withLock { (state: inout State) throws(NatsConnectionError) in
            if let memberGUID = state.memberGUID, memberGUID != namespace.userGUID {
                throw NatsConnectionError(.invalidSubject, "This sealed session channel belongs to another member.")
            }
            state.memberGUID = namespace.userGUID
        }
        var attempt = VaultSessionStateMachine<SealedSessionClient>.Attempt()
        while true {
            let session = try await acquire(namespace: namespace, connection: connection, timeout: timeout)
            let refusal: NatsConnectionError
            do {
                return try await send(
                    handler: handler, body: body, in: session, namespace: namespace, connection: connection,
                    timeout: timeout)
            } catch {
                refusal = error
            }
            let recovery = state.withLock {
                $0.machine.requestRefused(refusal.code.rawValue, in: session, attempt: &attempt)
            }
            switch recovery {
            case .renew, .retry: continue
            case .fail: throw refusal
            }
        }
    }

    /// One sealed request in `session`; a sealed `out_of_order` failure is thrown as an error with that code.
    nonisolated(nonsending) private func send(
        handler: String, body: JSONValue, in session: SealedSessionClient, namespace: VaultNamespace,
        connection: NatsConnection, timeout: Duration?
    ) async throws(NatsConnectionError) -> SessionInnerResponse {
        let request: SealedRequest
        do {
            request = try session.sealRequest(handler: handler, body: body, validFor: configuration.requestValidity)
        } catch {
            throw Self.error(error)
        }
        let reply = try await connection.request(
            request.envelope, to: namespace.sealed(route: session.sessionID.route.subjectToken), timeout: timeout)
        let response: SessionInnerResponse
        do {
            response = try session.openResponse(Array(reply.payload.readableBytesView), to: request)
        } catch {
            throw Self.error(error)
        }
        if case .failure(_, let failure) = response, failure.code.rawValue == SessionError.Code.outOfOrder.rawValue {
            throw NatsConnectionError(.init(rawValue: failure.code.rawValue), failure.message)
        }
        return response
    }

    nonisolated(nonsending) private func acquire(
        namespace: VaultNamespace, connection: NatsConnection, timeout: Duration?
    ) async throws(NatsConnectionError) -> SealedSessionClient {
        let (action, waiter) = state.withLock { state in
            state.nextWaiter += 1
            let action = state.machine.acquire(waiter: state.nextWaiter)
            if case .startHandshake = action { state.handshakeCount += 1 }
            return (action, state.nextWaiter)
        }
        switch action {
        case .use(let session):
            return session
        case .wait:
            do {
                return try await withCheckedThrowingContinuation { continuation in
                    let early = state.withLock { state in
                        guard let result = state.early.removeValue(forKey: waiter) else {
                            state.waiters[waiter] = continuation
                            return Result<SealedSessionClient, NatsConnectionError>?.none
                        }
                        return result
                    }
                    if let early { continuation.resume(with: early.mapError { $0 as any Error }) }
                }
            } catch let error as NatsConnectionError {
                throw error
            } catch {
                throw NatsConnectionError(
                    .init(rawValue: "handshake_failed"), "The handshake failed.", underlying: error)
            }
        case .startHandshake:
            let result: Result<SealedSessionClient, NatsConnectionError>
            do throws(NatsConnectionError) {
                result = .success(try await handshake(namespace: namespace, connection: connection, timeout: timeout))
            } catch {
                result = .failure(error)
            }
            let woken = state.withLock { state in
                var woken: [CheckedContinuation<SealedSessionClient, any Error>] = []
                for id in state.machine.handshakeFinished(try? result.get()) {
                    if let continuation = state.waiters.removeValue(forKey: id) {
                        woken.append(continuation)
                    } else {
                        state.early[id] = result
                    }
                }
                return woken
            }
            for continuation in woken { continuation.resume(with: result.mapError { $0 as any Error }) }
            return try result.get()
        }
    }

    nonisolated(nonsending) private func handshake(
        namespace: VaultNamespace, connection: NatsConnection, timeout: Duration?
    ) async throws(NatsConnectionError) -> SealedSessionClient {
        var keys = try await Self.keys(dependencies.pinnedKeys)
        let pending: PendingSessionHandshake
        do {
            let signer = try await dependencies.deviceSigner()
            let initiator = SessionInitiator(
                memberGUID: namespace.userGUID, deviceSigner: signer, expectedVaultKID: keys.currentKID,
                suites: configuration.suites, clock: configuration.clock)
            pending = try await initiator.start()
        } catch let error as SessionError {
            throw Self.error(error)
        } catch {
            throw NatsConnectionError(
                .init(rawValue: SessionError.Code.handshakeFailed.rawValue),
                "The device key could not sign the session's handshake.", underlying: error)
        }
        let reply = try await connection.request(pending.initBytes, to: namespace.sessionInit, timeout: timeout)
        let response = Array(reply.payload.readableBytesView)
        var refreshed = false
        while true {
            do {
                return try pending.complete(response: response, pinnedVaultKeys: keys.publicKeys)
            } catch {
                switch VaultSessionStateMachine<SealedSessionClient>.handshakeRefused(
                    error.code.rawValue, keysRefreshed: refreshed)
                {
                case .refreshKeys:
                    refreshed = true
                    keys = try await Self.keys(dependencies.refreshPinnedKeys)
                case .fail:
                    throw Self.error(error)
                }
            }
        }
    }

    private static func keys(
        _ load: @Sendable () async throws -> PinnedVaultKeys
    ) async throws(NatsConnectionError) -> PinnedVaultKeys {
        do {
            return try await load()
        } catch {
            throw NatsConnectionError(
                .init(rawValue: SessionError.Code.vaultKeyNotPinned.rawValue),
                "The pinned vault keys are not available.", underlying: error)
        }
    }

    /// A session error as the NATS layer's error: same code, the session error underneath.
    static func error(_ error: SessionError) -> NatsConnectionError {
        NatsConnectionError(.init(rawValue: error.code.rawValue), error.message, underlying: error)
    }
}
