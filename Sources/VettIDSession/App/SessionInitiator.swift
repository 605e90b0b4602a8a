// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCore
public import VettIDCrypto

// The app's side of the handshake, first half: the signed init.

/// Starts a sealed session with the member's vault: builds and signs the init.
///
/// ```swift
/// let initiator = SessionInitiator(memberGUID: guid, deviceSigner: deviceKey, expectedVaultKID: pinned.currentKID)
/// let pending = try await initiator.start()
/// let reply = try await nats.request(pending.initBytes, subject: "OwnerSpace.\(guid).forVault.session")
/// let session = try pending.complete(response: reply, pinnedVaultKeys: pinned.keys)
/// ```
///
/// The device key signs through VettIDCrypto's `DPoPSigner` (ES256, raw `r || s`), so a Secure Enclave key works as
/// is: it signs, it never has to agree on a key. The ephemeral keys are fresh for every handshake and live only in
/// the ``PendingSessionHandshake``.
public struct SessionInitiator: Sendable {
    /// The member whose vault is addressed.
    public let memberGUID: String
    /// The kid of the vault key the app expects (its pinned current key).
    public let expectedVaultKID: String
    /// The suites offered, most preferred first.
    public let suites: [SessionSuite]
    /// The padding of the requests the session will seal.
    public let padding: SessionPadding
    private let signer: any DPoPSigner
    private let clock: any WallClock
    private let random: any SessionRandom

    /// An initiator for `memberGUID`'s vault, signing with the enrolled device key.
    /// - Parameters:
    ///   - memberGUID: the member whose vault is addressed (the `{guid}` of the subjects).
    ///   - deviceSigner: the enrolled device key.
    ///   - expectedVaultKID: the kid of the pinned vault key the app expects to sign the response.
    ///   - suites: what to offer, most preferred first; by default every suite this platform can run
    ///     (``SessionSuite/available``: X-Wing first where it exists, then X25519).
    ///   - padding: the padding of the session's requests.
    ///   - clock: the init's `timestamp_ms` and the requests' `exp` are read from it.
    ///   - random: nonces, ephemeral keys and request ids.
    public init(
        memberGUID: String, deviceSigner: any DPoPSigner, expectedVaultKID: String,
        suites: [SessionSuite] = SessionSuite.available, padding: SessionPadding = .init(),
        clock: any WallClock = SystemWallClock(), random: any SessionRandom = SystemSessionRandom()
    ) {
        self.memberGUID = memberGUID
        self.signer = deviceSigner
        self.expectedVaultKID = expectedVaultKID
        self.suites = suites
        self.padding = padding
        self.clock = clock
        self.random = random
    }

    /// Builds and signs an init with fresh ephemeral keys, a fresh `nonce_a` and the clock's time.
    /// - Throws: ``SessionError`` (`malformed_handshake` for a member GUID or kid that does not fit, `no_common_suite`
    ///   for a suite this platform cannot run, `handshake_failed` for a signer that returns no 64-byte signature),
    ///   or whatever the device signer throws (a Secure Enclave key the user did not unlock).
    public func start() async throws -> PendingSessionHandshake {
        var keys: [SessionEphemeralKey] = []
        for suite in suites { keys.append(try SessionEphemeralKey.generate(suite: suite, random: random)) }
        return try await start(
            ephemeralKeys: keys, nonce: random.bytes(32), timestampMilliseconds: clock.sessionMilliseconds)
    }

    /// Builds and signs an init from given ephemeral keys (one per offer, in preference order), nonce and time: the
    /// deterministic half of ``start()``, for test vectors.
    public func start(
        ephemeralKeys: [SessionEphemeralKey], nonce: [UInt8], timestampMilliseconds: UInt64
    ) async throws -> PendingSessionHandshake {
        let unsigned = try SessionInit(
            memberGUID: memberGUID, devicePublicKey: signer.publicJWK.publicKey, vaultKID: expectedVaultKID,
            timestampMilliseconds: timestampMilliseconds, nonce: nonce, offers: ephemeralKeys.map(SessionOffer.init))
        let signature = try await signer.sign(unsigned.signatureInput)
        guard signature.count == 64 else {
            throw SessionError(.handshakeFailed, "the device signer must return a 64-byte r || s signature")
        }
        return PendingSessionHandshake(
            sessionInit: try unsigned.signed(signature), ephemeralKeys: ephemeralKeys, padding: padding, clock: clock,
            random: random)
    }
}
