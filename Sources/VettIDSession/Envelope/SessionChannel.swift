// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
public import VettIDCore

// The symmetric half of an established session: sealing and opening envelopes in each direction.

/// An established session's envelope layer: its id, suite, padding and the two direction keys.
///
/// Stateless: the sequence numbers are the caller's (``SealedSessionClient`` counts them on the app,
/// ``SequenceAdmission`` admits them on the vault). The checks run in the order of docs/protocol.md §7.3.
///
/// Sealing two different messages with one sequence number in one direction reuses a ChaCha20-Poly1305 nonce, which
/// reveals both plaintexts' XOR and allows forgeries: use ``SealedSessionClient`` and ``SealedSessionTable``, which
/// never do, and this type directly only for test vectors or a fuzz target.
public struct SessionChannel: Sendable {
    /// The session.
    public let sessionID: SessionID
    /// The session's suite, carried in every header.
    public let suite: SessionSuite
    /// The padding rule and the largest inner message.
    public let padding: SessionPadding
    let keys: SessionKeys
    /// The two keys as swift-crypto keys, made once per session rather than per message.
    private let appToVault: SymmetricKey
    private let vaultToApp: SymmetricKey

    /// The channel of a session whose keys ``SessionKeySchedule`` derived.
    public init(sessionID: SessionID, suite: SessionSuite, keys: SessionKeys, padding: SessionPadding = .init()) {
        self.sessionID = sessionID
        self.suite = suite
        self.keys = keys
        self.padding = padding
        self.appToVault = SymmetricKey(data: keys.appToVault)
        self.vaultToApp = SymmetricKey(data: keys.vaultToApp)
    }

    // MARK: App side

    /// Pads and seals a request under `k_a2v`.
    /// - Throws: `message_too_large`.
    public func sealRequest(_ inner: [UInt8], sequence: UInt64) throws(SessionError) -> [UInt8] {
        let header = SessionEnvelopeHeader(suite: suite, isResponse: false, sessionID: sessionID, sequence: sequence)
        return SessionEnvelope.sealedBytes(try padding.pad(inner), header: header, key: appToVault)
    }

    /// Opens the response to the request sealed with `sequence`.
    /// - Throws: `malformed_envelope` / `unsupported_version` (header), `malformed_envelope` (not a response),
    ///   `response_mismatch` (another session or sequence), `suite_mismatch`, `bad_envelope`, `bad_padding`,
    ///   `message_too_large`.
    public func openResponse(_ bytes: [UInt8], sequence: UInt64) throws(SessionError) -> [UInt8] {
        let envelope = try SessionEnvelope(parsing: bytes)
        guard envelope.header.isResponse else {
            throw SessionError(.malformedEnvelope, "a response must have the response flag")
        }
        guard envelope.header.sessionID == sessionID, envelope.header.sequence == sequence else {
            throw SessionError(.responseMismatch, "the envelope answers another session or request")
        }
        guard envelope.header.suite == suite else {
            throw SessionError(.suiteMismatch, "the envelope's suite is not the session's")
        }
        return try padding.unpad(envelope.open(key: vaultToApp))
    }

    // MARK: Vault side

    /// Opens a request of this session (after the vault found the session by the header's id and checked its
    /// lifetime and limits).
    /// - Throws: `malformed_envelope` (response flag), `unknown_session` (another session's id), `suite_mismatch`,
    ///   `bad_envelope`, `bad_padding`, `message_too_large`.
    public func openRequest(_ envelope: SessionEnvelope) throws(SessionError) -> [UInt8] {
        guard !envelope.header.isResponse else {
            throw SessionError(.malformedEnvelope, "a request must not have the response flag")
        }
        guard envelope.header.sessionID == sessionID else {
            throw SessionError(.unknownSession, "the envelope names another session")
        }
        guard envelope.header.suite == suite else {
            throw SessionError(.suiteMismatch, "the envelope's suite is not the session's")
        }
        return try padding.unpad(envelope.open(key: appToVault))
    }

    /// Pads and seals the response to the request of `sequence` under `k_v2a`. Call it at most once per sequence
    /// number (``AdmittedSessionRequest`` enforces this on the vault).
    /// - Throws: `message_too_large`.
    public func sealResponse(_ inner: [UInt8], sequence: UInt64) throws(SessionError) -> [UInt8] {
        let header = SessionEnvelopeHeader(suite: suite, isResponse: true, sessionID: sessionID, sequence: sequence)
        return SessionEnvelope.sealedBytes(try padding.pad(inner), header: header, key: vaultToApp)
    }
}
