// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import NIOCore

/// A message received from the server (`MSG` or `HMSG`).
///
/// The client copies the payloads of the messages that arrived in one read out of the socket's buffer into one
/// buffer of their own, and each message's ``payload`` is a slice of it: keeping a message keeps at most the
/// payloads of its read alive (copy the bytes out to keep one alone for long).
public struct NATSMessage: Sendable, Equatable {
    /// The subject the message was published to.
    public var subject: String
    /// The reply subject, if the publisher expects an answer.
    public var replyTo: String?
    /// Headers, if the message was sent with HPUB.
    public var headers: NATSHeaders?
    /// The payload bytes.
    public var payload: ByteBuffer

    /// Creates a message.
    public init(subject: String, replyTo: String? = nil, headers: NATSHeaders? = nil, payload: ByteBuffer) {
        self.subject = subject
        self.replyTo = replyTo
        self.headers = headers
        self.payload = payload
    }

    /// The header status code (for example 503 for no responders), if any.
    public var status: Int? { headers?.status }

    /// The payload decoded as UTF-8.
    public var payloadString: String { String(buffer: payload) }
}
