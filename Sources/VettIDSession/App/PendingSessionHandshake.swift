// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Crypto
public import VettIDCore
import VettIDCrypto

// The app's side of the handshake, second half: checking the vault's response and deriving the keys.

/// A sent init waiting for the vault's response; it holds the ephemeral private keys until then.
public struct PendingSessionHandshake: Sendable {
    /// The signed init.
    public let sessionInit: SessionInit
    /// The init's bytes: publish them on `OwnerSpace.{guid}.forVault.session` with the app's inbox as reply subject.
    public let initBytes: [UInt8]
    private let ephemeralKeys: [SessionEphemeralKey]
    private let padding: SessionPadding
    private let clock: any WallClock
    private let random: any SessionRandom
    /// Set by the first successful ``complete(response:pinnedVaultKeys:)``: a second session with the same keys
    /// would seal its requests under sequence numbers the first one already used.
    private let completed = LockedValue(false)

    /// A handshake of an init signed elsewhere and its ephemeral keys (``SessionInitiator/start()`` makes it; this
    /// initializer serves test vectors and a caller that signs the init itself).
    /// - Parameters:
    ///   - sessionInit: the signed init, as sent.
    ///   - ephemeralKeys: the private keys of its offers.
    ///   - padding: the padding of the session's requests.
    ///   - clock: what `expires_at` is compared with, and what the session's requests read their `exp` from.
    ///   - random: the session's request ids.
    public init(
        sessionInit: SessionInit, ephemeralKeys: [SessionEphemeralKey], padding: SessionPadding = .init(),
        clock: any WallClock = SystemWallClock(), random: any SessionRandom = SystemSessionRandom()
    ) {
        self.sessionInit = sessionInit
        self.initBytes = sessionInit.bytes
        self.ephemeralKeys = ephemeralKeys
        self.padding = padding
        self.clock = clock
        self.random = random
    }

    /// Checks the vault's answer and derives the session. It succeeds at most once (a failed call, such as
    /// `vault_key_not_pinned`, may be repeated; a second success throws `handshake_failed`).
    ///
    /// Checks, in order: a plaintext ``SessionRefusal`` is thrown as its code; layout (`malformed_handshake`,
    /// `unsupported_version`); the suite is one the app offered and its most preferred offer among the vault's
    /// suites (`suite_downgrade`); `enc` has the suite's length (`malformed_handshake`); the vault kid is pinned
    /// (`vault_key_not_pinned`: refresh the pinned keys once and call this again with the same bytes); the vault
    /// signature over `th` (`bad_vault_signature`); `expires_at` is in the future (`stale_handshake`); HPKE
    /// (`key_agreement_failed`).
    /// - Parameters:
    ///   - bytes: the vault's answer on the init's reply subject.
    ///   - pinnedVaultKeys: the vault identity keys the app trusts, by kid (from the enrollment answer or the
    ///     DPoP-bound API).
    public func complete(
        response bytes: [UInt8], pinnedVaultKeys: [String: P256.Signing.PublicKey]
    ) throws(SessionError) -> SealedSessionClient {
        if SessionRefusal.isRefusal(bytes) {
            guard let refusal = try? SessionRefusal(parsing: bytes) else {
                throw SessionError(.malformedHandshake, "the vault's answer is neither a response nor a refusal")
            }
            throw refusal.error
        }
        let response = try SessionResponse(parsing: bytes)
        let expected = sessionInit.offers.first { response.vaultSuites.contains($0.suite) }
        guard let offer = expected, offer.suite == response.suite,
            let key = ephemeralKeys.first(where: { $0.suite == offer.suite })
        else {
            throw SessionError(
                .suiteDowngrade, "the vault chose \(response.suite), not the preferred offer among its suites")
        }
        guard response.encapsulatedKey.count == response.suite.encapsulatedKeyLength else {
            throw SessionError(.malformedHandshake, "enc has the wrong length for \(response.suite)")
        }
        guard let vaultKey = pinnedVaultKeys[response.vaultKID] else {
            throw SessionError(.vaultKeyNotPinned, "vault key '\(response.vaultKID.prefix(64))' is not pinned")
        }
        let transcriptHash = SessionKeySchedule.transcriptHash(
            initBytes: initBytes, responseSignedBytes: response.signedBytes)
        guard
            ES256.isValid(
                signature: response.vaultSignature,
                for: SessionKeySchedule.responseSignatureInput(transcriptHash: transcriptHash), publicKey: vaultKey)
        else { throw SessionError(.badVaultSignature, "the vault signature does not verify over the transcript") }
        guard response.expiresAtMilliseconds > clock.sessionMilliseconds else {
            throw SessionError(.staleHandshake, "the session's expires_at has already passed")
        }
        let info = SessionKeySchedule.hpkeInfo(initHash: SessionKeySchedule.initHash(initBytes))
        let secret = try key.exportSecret(enc: response.encapsulatedKey, info: info)
        let first = completed.withLock { completed in
            defer { completed = true }
            return !completed
        }
        guard first else { throw SessionError(.handshakeFailed, "this handshake has already completed") }
        let channel = SessionChannel(
            sessionID: response.sessionID, suite: response.suite,
            keys: SessionKeySchedule.keys(secret: secret, transcriptHash: transcriptHash), padding: padding)
        return SealedSessionClient(
            channel: channel, vaultKID: response.vaultKID, expiresAtMilliseconds: response.expiresAtMilliseconds,
            maxMessages: response.maxMessages, clock: clock, random: random)
    }
}
