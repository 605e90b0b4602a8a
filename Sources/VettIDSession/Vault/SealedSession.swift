// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCore

// An established session as the vault keeps it.

/// A session the vault accepted: who it is for, its limits, and its channel.
public struct SealedSession: Sendable, CustomStringConvertible {
    /// The session's channel (id, suite, padding, keys).
    let channel: SessionChannel
    /// The member.
    public let memberGUID: String
    /// The RFC 7638 thumbprint of the device that opened it.
    public let deviceThumbprint: String
    /// The kid of the vault key that signed the handshake.
    public let vaultKID: String
    /// When the handshake was accepted, Unix milliseconds.
    public let createdAtMilliseconds: UInt64
    /// When the session ends, Unix milliseconds.
    public let expiresAtMilliseconds: UInt64
    /// How many requests it admits.
    public let maxMessages: UInt32

    /// A session from its parts: what ``SessionResponder/accept(_:identity:)`` builds, and what a vault that keeps
    /// sessions outside the process (or a test, or a fuzz target with fixed keys) rebuilds.
    public init(
        channel: SessionChannel, memberGUID: String, deviceThumbprint: String, vaultKID: String,
        createdAtMilliseconds: UInt64, expiresAtMilliseconds: UInt64, maxMessages: UInt32
    ) {
        precondition(maxMessages >= 1, "a session admits at least one request")
        self.channel = channel
        self.memberGUID = memberGUID
        self.deviceThumbprint = deviceThumbprint
        self.vaultKID = vaultKID
        self.createdAtMilliseconds = createdAtMilliseconds
        self.expiresAtMilliseconds = expiresAtMilliseconds
        self.maxMessages = maxMessages
    }

    /// The session's id.
    public var id: SessionID { channel.sessionID }
    /// The session's suite.
    public var suite: SessionSuite { channel.suite }

    /// Whether the lifetime has passed at `nowMilliseconds`.
    public func isExpired(atMilliseconds nowMilliseconds: UInt64) -> Bool { nowMilliseconds >= expiresAtMilliseconds }

    /// The checks before sequence admission, for a request envelope found under this session's id: lifetime and
    /// limit (`session_expired`), direction (`malformed_envelope`), suite (`suite_mismatch`), AEAD (`bad_envelope`),
    /// padding (`bad_padding`, `message_too_large`).
    /// - Returns: the inner message's bytes.
    public func open(_ envelope: SessionEnvelope, nowMilliseconds: UInt64) throws(SessionError) -> [UInt8] {
        guard !envelope.header.isResponse else {
            throw SessionError(.malformedEnvelope, "a request must not have the response flag")
        }
        guard !isExpired(atMilliseconds: nowMilliseconds) else {
            throw SessionError(.sessionExpired, "the session's lifetime has passed")
        }
        guard envelope.header.sequence <= UInt64(maxMessages) else {
            throw SessionError(.sessionExpired, "the session's \(maxMessages) requests are used")
        }
        return try channel.openRequest(envelope)
    }

    /// Member, device and id; never key material.
    public var description: String { "SealedSession(\(id), member: \(memberGUID), device: \(deviceThumbprint))" }
}
