// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCore
import VettIDCrypto

// The vault's side of the handshake: check the init, then (after the worker's device check) answer it.

/// Answers inits on `OwnerSpace.{guid}.forVault.session`.
///
/// ```swift
/// let checked = try responder.check(payload, memberGUID: subjectGUID)
/// guard try await devices.isEnrolled(checked.deviceThumbprint, of: checked.memberGUID) else {
///     throw SessionError(.unknownDevice, "…")                     // answered as a plaintext SessionRefusal
/// }
/// let accepted = try responder.accept(checked, identity: keyRing.identity(preferring: checked.expectedVaultKID))
/// table.insert(accepted.session)
/// publish(accepted.responseBytes, to: replySubject)
/// ```
///
/// Shared by every worker instance of the process (it is a value; its nonce cache is shared).
public struct SessionResponder: Sendable {
    /// The vault's session parameters.
    public struct Configuration: Sendable, Hashable {
        /// The suites the vault supports, most preferred first (sent as `vault_suites`); 1 to 16, distinct.
        public var suites: [SessionSuite]
        /// How long a session lasts (`expires_at` = now + lifetime); 24 h by default.
        public var lifetime: Duration
        /// How many requests a session admits; 1000 by default.
        public var maxMessages: UInt32
        /// How far an init's timestamp may be from the vault's clock; 300 s by default.
        public var clockSkew: Duration
        /// The padding (largest inner message) of the sessions' envelopes.
        public var padding: SessionPadding
        /// The instance that will hold the sessions: the first bytes of every session id (``SessionRoute``).
        public var route: SessionRoute

        /// The defaults of docs/protocol.md §7.3.
        public init(
            suites: [SessionSuite] = SessionSuite.available, lifetime: Duration = .seconds(86_400),
            maxMessages: UInt32 = 1000, clockSkew: Duration = .seconds(300), padding: SessionPadding = .init(),
            route: SessionRoute = .random(SystemSessionRandom())
        ) {
            self.route = route
            self.suites = suites
            self.lifetime = lifetime
            self.maxMessages = maxMessages
            self.clockSkew = clockSkew
            self.padding = padding
        }
    }

    /// The parameters.
    public let configuration: Configuration
    private let nonces: any HandshakeNonceCache
    private let clock: any WallClock
    private let random: any SessionRandom

    /// A responder recording nonces in `nonces` (shared by the process's worker instances).
    public init(
        configuration: Configuration = .init(), nonces: any HandshakeNonceCache,
        clock: any WallClock = SystemWallClock(), random: any SessionRandom = SystemSessionRandom()
    ) {
        precondition(
            (1...SessionResponse.maxVaultSuites).contains(configuration.suites.count)
                && Set(configuration.suites).count == configuration.suites.count
                && configuration.suites.allSatisfy(\.isAvailable),
            "a vault supports 1 to 16 distinct suites this platform can run")
        precondition(configuration.maxMessages >= 1, "a session admits at least one request")
        self.configuration = configuration
        self.nonces = nonces
        self.clock = clock
        self.random = random
    }

    /// Checks an init received on `OwnerSpace.{memberGUID}.forVault.session`.
    ///
    /// Checks, in order: layout (`malformed_handshake`; `unsupported_version`), `member_guid` equals the subject's
    /// (`member_mismatch`), a common suite (`no_common_suite`), the timestamp within ±``Configuration/clockSkew``
    /// of the vault's clock (`stale_handshake`), `nonce_a` not seen (`handshake_replay`), the device signature
    /// (`bad_device_signature`). Records nothing: the nonce is recorded by ``accept(_:identity:)``.
    public func check(_ initBytes: [UInt8], memberGUID: String) throws(SessionError) -> CheckedSessionInit {
        let sessionInit = try SessionInit(parsing: initBytes)
        guard sessionInit.memberGUID == memberGUID else {
            throw SessionError(.memberMismatch, "the init names another member than its subject")
        }
        guard let offer = sessionInit.offers.first(where: { configuration.suites.contains($0.suite) }) else {
            throw SessionError(.noCommonSuite, "none of the offered suites is supported")
        }
        let now = clock.sessionMilliseconds
        let skew = configuration.clockSkew.wholeMilliseconds
        let timestamp = sessionInit.timestampMilliseconds
        guard timestamp <= now || timestamp - now <= skew, timestamp >= now || now - timestamp <= skew else {
            throw SessionError(.staleHandshake, "the init's timestamp is more than \(skew / 1000) s from the vault's")
        }
        guard !nonces.contains(sessionInit.nonce, nowMilliseconds: now) else {
            throw SessionError(.handshakeReplay, "this init's nonce was already used")
        }
        guard sessionInit.hasValidDeviceSignature else {
            throw SessionError(.badDeviceSignature, "the device signature does not verify")
        }
        return CheckedSessionInit(sessionInit: sessionInit, initBytes: initBytes, suite: offer.suite)
    }

    /// Accepts a checked init whose device the worker found enrolled: records its nonce, encapsulates to the chosen
    /// offer, and signs the response with `identity`.
    /// - Throws: `handshake_replay` (another worker instance accepted the same init meanwhile),
    ///   `key_agreement_failed` (the offered ephemeral key is not a valid key of its suite), `handshake_failed`.
    public func accept(
        _ checked: CheckedSessionInit, identity: VaultIdentityKey
    ) throws(SessionError) -> SessionAcceptance {
        let now = clock.sessionMilliseconds
        guard nonces.insert(checked.sessionInit.nonce, nowMilliseconds: now) else {
            throw SessionError(.handshakeReplay, "this init's nonce was already used")
        }
        guard let offer = checked.sessionInit.offers.first(where: { $0.suite == checked.suite }) else {
            throw SessionError(.noCommonSuite, "the chosen suite is not offered")
        }
        let info = SessionKeySchedule.hpkeInfo(initHash: SessionKeySchedule.initHash(checked.initBytes))
        let (enc, secret) = try SessionKEM.encapsulate(suite: offer.suite, to: offer.ephemeralPublicKey, info: info)
        let unsigned = try SessionResponse(
            suite: offer.suite, vaultSuites: configuration.suites,
            sessionID: .random(random, route: configuration.route), nonce: random.bytes(32),
            vaultKID: identity.kid, expiresAtMilliseconds: now + configuration.lifetime.wholeMilliseconds,
            maxMessages: configuration.maxMessages, encapsulatedKey: enc)
        let transcriptHash = SessionKeySchedule.transcriptHash(
            initBytes: checked.initBytes, responseSignedBytes: unsigned.signedBytes)
        let signature: [UInt8]
        do {
            signature = try ES256.sign(
                SessionKeySchedule.responseSignatureInput(transcriptHash: transcriptHash), with: identity.privateKey)
        } catch {
            throw SessionError(.handshakeFailed, "the vault identity key could not sign")
        }
        let response = try unsigned.signed(signature)
        let channel = SessionChannel(
            sessionID: response.sessionID, suite: response.suite,
            keys: SessionKeySchedule.keys(secret: secret, transcriptHash: transcriptHash),
            padding: configuration.padding)
        let session = SealedSession(
            channel: channel, memberGUID: checked.memberGUID, deviceThumbprint: checked.deviceThumbprint,
            vaultKID: identity.kid, createdAtMilliseconds: now, expiresAtMilliseconds: response.expiresAtMilliseconds,
            maxMessages: response.maxMessages)
        return SessionAcceptance(responseBytes: response.bytes, session: session)
    }
}
