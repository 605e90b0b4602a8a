// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCore
public import VettIDCrypto

// The app's established session: seals requests with increasing sequence numbers and opens their answers.

/// An established session on the app: safe to share between tasks (the sequence counter is locked).
///
/// It is usable until ``expiresAtMilliseconds`` or until ``maxMessages`` requests were sealed, whichever comes
/// first; then ``sealRequest(handler:body:validFor:)`` throws `session_expired` and the app runs a new handshake
/// (a "rekey"). The vault may also end it earlier (evicted, restarted): its `unknown_session` / `session_expired`
/// refusals mean the same.
public final class SealedSessionClient: Sendable, CustomStringConvertible {
    /// The channel: session id, suite, padding and keys.
    let channel: SessionChannel
    /// The kid of the vault key that signed the handshake.
    public let vaultKID: String
    /// When the session ends, Unix milliseconds (the vault's clock).
    public let expiresAtMilliseconds: UInt64
    /// How many requests the session admits.
    public let maxMessages: UInt32
    private let lastSequence = LockedValue<UInt64>(0)
    private let clock: any WallClock
    private let random: any SessionRandom

    init(
        channel: SessionChannel, vaultKID: String, expiresAtMilliseconds: UInt64, maxMessages: UInt32,
        clock: any WallClock, random: any SessionRandom
    ) {
        self.channel = channel
        self.vaultKID = vaultKID
        self.expiresAtMilliseconds = expiresAtMilliseconds
        self.maxMessages = maxMessages
        self.clock = clock
        self.random = random
    }

    /// The session's id.
    public var sessionID: SessionID { channel.sessionID }
    /// The session's suite.
    public var suite: SessionSuite { channel.suite }

    /// The sequence numbers not yet used.
    public var remainingRequests: UInt64 { UInt64(maxMessages) - lastSequence.withLock { $0 } }

    /// Whether a request sealed now, valid for `margin`, would still be inside the session's lifetime and limit.
    public func isUsable(margin: Duration = .zero) -> Bool {
        remainingRequests > 0 && clock.sessionMilliseconds + margin.wholeMilliseconds < expiresAtMilliseconds
    }

    /// Seals a request to `handler` with the next sequence number and a fresh id.
    /// - Parameters:
    ///   - handler: the handler's id.
    ///   - body: the handler's input.
    ///   - validFor: how long the vault may still run the request (its `exp`); 30 s by default.
    /// - Throws: `session_expired` (lifetime or limit reached: rekey), `message_too_large`, `malformed_message`
    ///   (a handler name of more than 128 bytes).
    public func sealRequest(
        handler: String, body: JSONValue, validFor: Duration = .seconds(30)
    ) throws(SessionError) -> SealedRequest {
        let now = clock.sessionMilliseconds
        let exp = now + validFor.wholeMilliseconds
        let request = try SessionInnerRequest(
            id: Self.uuid(random.bytes(16)), handler: handler, body: body,
            expiresAtMilliseconds: Int64(clamping: exp))
        return try seal(request)
    }

    /// Seals a request built by the caller with the next sequence number.
    /// - Throws: `session_expired` (lifetime or limit reached: rekey), `message_too_large`.
    public func seal(_ request: SessionInnerRequest) throws(SessionError) -> SealedRequest {
        let inner = request.bytes
        guard inner.count <= channel.padding.maxInnerLength else {
            throw SessionError(.messageTooLarge, "the request's \(inner.count) bytes exceed the session's limit")
        }
        guard clock.sessionMilliseconds < expiresAtMilliseconds else {
            throw SessionError(.sessionExpired, "the session's lifetime has passed")
        }
        let limit = UInt64(maxMessages)
        let sequence = lastSequence.withLock { last -> UInt64? in
            guard last < limit else { return nil }
            last += 1
            return last
        }
        guard let sequence else { throw SessionError(.sessionExpired, "the session's \(limit) requests are used") }
        return SealedRequest(
            sequence: sequence, id: request.id, envelope: try channel.sealRequest(inner, sequence: sequence))
    }

    /// Opens the vault's answer to `request`.
    ///
    /// Checks, in order: a plaintext ``SessionRefusal`` is thrown as its code; the envelope answers this session and
    /// this request's sequence (`malformed_envelope`, `response_mismatch`, `suite_mismatch`); it opens
    /// (`bad_envelope`) and unpads (`bad_padding`); the inner response is valid (`malformed_message`) and echoes the
    /// request's id (`response_mismatch`; a failure may carry a `null` id).
    /// - Returns: the handler's result or error.
    public func openResponse(_ bytes: [UInt8], to request: SealedRequest) throws(SessionError) -> SessionInnerResponse {
        if SessionRefusal.isRefusal(bytes) {
            guard let refusal = try? SessionRefusal(parsing: bytes) else {
                throw SessionError(.malformedEnvelope, "the answer is neither an envelope nor a refusal")
            }
            throw refusal.error
        }
        let response = try SessionInnerResponse(
            decoding: channel.openResponse(bytes, sequence: request.sequence))
        let isFailure = if case .failure = response { true } else { false }
        guard response.id == request.id || (isFailure && response.id == nil) else {
            throw SessionError(.responseMismatch, "the response answers another request id")
        }
        return response
    }

    /// Session id, suite and limits; never key material.
    public var description: String {
        "SealedSessionClient(\(channel.sessionID), \(channel.suite), expires \(expiresAtMilliseconds))"
    }

    /// A lowercase RFC 9562 version-4 UUID from 16 random bytes.
    static func uuid(_ bytes: [UInt8]) -> String {
        precondition(bytes.count == 16, "a UUID is 16 bytes")
        // Written in place: formatting through intermediate strings cost as much as the random bytes.
        return String(unsafeUninitializedCapacity: 36) { text in
            var at = 0
            for index in 0..<16 {
                if index == 4 || index == 6 || index == 8 || index == 10 {
                    text[at] = UInt8(ascii: "-")
                    at += 1
                }
                let byte =
                    switch index {
                    case 6: bytes[index] & 0x0F | 0x40
                    case 8: bytes[index] & 0x3F | 0x80
                    default: bytes[index]
                    }
                text[at] = hexDigit(byte >> 4)
                text[at + 1] = hexDigit(byte & 0x0F)
                at += 2
            }
            return at
        }
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }
}
