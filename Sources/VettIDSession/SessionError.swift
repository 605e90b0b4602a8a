// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCore

// The typed error of the sealed session: every refusal of docs/protocol.md §7.3 has its code here.

/// The family of ``SessionError``.
public enum SessionErrorDomain: ErrorDomain {}

/// Why a handshake message or an envelope was refused, or why the session could not be used.
///
/// The code is what the vault sends back (sealed or in a plaintext ``SessionRefusal``) and what the SDK matches on:
/// `session_expired` and `unknown_session` mean "run a new handshake", `vault_key_not_pinned` means "refresh the
/// pinned vault keys once and try again". The set is open: match on the codes you know, keep the others.
public typealias SessionError = DomainError<SessionErrorDomain>

extension SessionError.Code {
    // Handshake.

    /// A handshake message has the wrong type, a field of the wrong length, too few or trailing bytes, or
    /// offers that are not well formed (none, more than 4, a suite twice, a known suite with a key of the
    /// wrong length).
    public static let malformedHandshake = Self(rawValue: "malformed_handshake")
    /// The handshake or envelope version is not one this side speaks.
    public static let unsupportedVersion = Self(rawValue: "unsupported_version")
    /// The init names another member than the subject it was published on.
    public static let memberMismatch = Self(rawValue: "member_mismatch")
    /// No offered suite is one the vault supports.
    public static let noCommonSuite = Self(rawValue: "no_common_suite")
    /// The init's timestamp is more than 300 s from the vault's clock, or the response's `expires_at` has
    /// passed on the app's clock.
    public static let staleHandshake = Self(rawValue: "stale_handshake")
    /// The init's `nonce_a` was already used within the last 600 s.
    public static let handshakeReplay = Self(rawValue: "handshake_replay")
    /// The device signature does not verify with the init's device key over the init.
    public static let badDeviceSignature = Self(rawValue: "bad_device_signature")
    /// The device key is not an enrolled, unrevoked device of this member (checked by the vault worker).
    public static let unknownDevice = Self(rawValue: "unknown_device")
    /// The vault chose another suite than the app's most preferred offer among the vault's suites.
    public static let suiteDowngrade = Self(rawValue: "suite_downgrade")
    /// The response is signed by a vault key the app has not pinned.
    public static let vaultKeyNotPinned = Self(rawValue: "vault_key_not_pinned")
    /// The vault signature does not verify with the pinned key over the transcript.
    public static let badVaultSignature = Self(rawValue: "bad_vault_signature")
    /// The HPKE encapsulation, decapsulation or export failed (an invalid ephemeral key or `enc`).
    public static let keyAgreementFailed = Self(rawValue: "key_agreement_failed")
    /// This side's own cryptography failed (an invalid fixed key, a signer returning a bad signature).
    public static let handshakeFailed = Self(rawValue: "handshake_failed")

    // Envelopes.

    /// The envelope is shorter than a header and a tag, has reserved flag bits set, sequence 0, or the
    /// direction flag of the other direction.
    public static let malformedEnvelope = Self(rawValue: "malformed_envelope")
    /// No session with this id exists for this member (never made, evicted, or another member's).
    public static let unknownSession = Self(rawValue: "unknown_session")
    /// The session's lifetime has passed or its sequence numbers are used up: run a new handshake.
    public static let sessionExpired = Self(rawValue: "session_expired")
    /// The envelope's suite is not the session's.
    public static let suiteMismatch = Self(rawValue: "suite_mismatch")
    /// The AEAD does not open: wrong key, modified header or body, truncated, or another session's.
    public static let badEnvelope = Self(rawValue: "bad_envelope")
    /// The opened plaintext is not `inner || 0x80 || 0x00…` in a whole number of 512-byte blocks.
    public static let badPadding = Self(rawValue: "bad_padding")
    /// The inner message is longer than the configured maximum.
    public static let messageTooLarge = Self(rawValue: "message_too_large")
    /// This sequence number was already admitted or answered in this session (answered unsealed).
    public static let replayed = Self(rawValue: "replayed")
    /// A sequence number below the highest admitted one arrived late; it is never admitted (answered
    /// sealed; send the request again with a new sequence number).
    public static let outOfOrder = Self(rawValue: "out_of_order")
    /// The inner message is not the JSON object the protocol defines.
    public static let malformedMessage = Self(rawValue: "malformed_message")
    /// The inner request's `exp` has passed.
    public static let requestExpired = Self(rawValue: "request_expired")
    /// The response envelope is not the answer to the pending request (another session, sequence or id).
    public static let responseMismatch = Self(rawValue: "response_mismatch")
    /// A response to this request was already sealed (a sequence number is sealed at most once per key).
    public static let alreadyAnswered = Self(rawValue: "already_answered")
}
