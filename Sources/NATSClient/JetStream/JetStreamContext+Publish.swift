// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// Publishing with acknowledgement: a request to the stream's subject, answered with a PubAck or an API error.

public import NIOCore

extension JetStreamContext {
    /// The header that names a message for de-duplication.
    public static let messageIDHeader = "Nats-Msg-Id"
    /// The header that makes the stream refuse the message unless its last sequence is the given one.
    public static let expectedLastSequenceHeader = "Nats-Expected-Last-Sequence"
    /// The header that makes the stream refuse the message unless the subject's last sequence is the given one.
    public static let expectedLastSubjectSequenceHeader = "Nats-Expected-Last-Subject-Sequence"
    /// The header that makes the message go only to the named stream.
    public static let expectedStreamHeader = "Nats-Expected-Stream"

    /// Publishes `payload` to `subject` and waits until a stream has stored it.
    ///
    /// With a `messageID`, a message the stream already stored under that ID within its duplicate window is not
    /// stored again: the answer has ``PubAck/duplicate`` set and the first message's sequence. That makes a
    /// retry after a `timeout` safe.
    ///
    /// - Parameters:
    ///   - payload: The message.
    ///   - subject: A subject some stream stores.
    ///   - messageID: The `Nats-Msg-Id` for de-duplication.
    ///   - expectedLastSequence: Store only if the stream's last sequence is this one.
    ///   - expectedLastSubjectSequence: Store only if the last sequence of `subject` in the stream is this one.
    ///   - expectedStream: Store only in this stream.
    ///   - headers: More headers to send.
    ///   - timeout: How long to wait for the acknowledgement (the context's ``timeout`` by default).
    /// - Throws: ``JetStreamError``: `noResponders` when no stream stores `subject` (or there is no JetStream),
    ///   `wrongLastSequence`, `apiError` for other refusals, `timeout` (the message may have been stored),
    ///   `invalidMessageID`, `requestFailed`.
    @discardableResult
    public func publish(
        _ payload: ByteBuffer,
        to subject: String,
        messageID: String? = nil,
        expectedLastSequence: UInt64? = nil,
        expectedLastSubjectSequence: UInt64? = nil,
        expectedStream: String? = nil,
        headers: NATSHeaders? = nil,
        timeout: Duration? = nil
    ) async throws(JetStreamError) -> PubAck {
        try await publishAsync(
            payload, to: subject, messageID: messageID, expectedLastSequence: expectedLastSequence,
            expectedLastSubjectSequence: expectedLastSubjectSequence, expectedStream: expectedStream, headers: headers,
            timeout: timeout
        ).value()
    }

    /// Publishes `payload` to `subject` and returns once it is on its way, with the future of its ``PubAck``: many
    /// publishes can wait for their acknowledgements at once without a task each (nats.go's `PublishAsync`). Keep
    /// a bounded number outstanding (await the oldest before publishing more), as nats.go's `MaxPending` does.
    ///
    /// The parameters and errors are those of `publish` with a `ByteBuffer`; this call throws only what is known
    /// before the acknowledgement (an invalid message ID or stream name, a closed connection),
    /// ``PubAckFuture/value()`` the rest.
    public func publishAsync(
        _ payload: ByteBuffer,
        to subject: String,
        messageID: String? = nil,
        expectedLastSequence: UInt64? = nil,
        expectedLastSubjectSequence: UInt64? = nil,
        expectedStream: String? = nil,
        headers: NATSHeaders? = nil,
        timeout: Duration? = nil
    ) async throws(JetStreamError) -> PubAckFuture {
        var headers = headers ?? NATSHeaders()
        if let messageID {
            guard !messageID.isEmpty, !messageID.contains(where: \.isNewline) else {
                throw JetStreamError(.invalidMessageID, "a message ID must be non-empty, on one line")
            }
            headers.append(name: Self.messageIDHeader, value: messageID)
        }
        if let expectedLastSequence {
            headers.append(name: Self.expectedLastSequenceHeader, value: String(expectedLastSequence))
        }
        if let expectedLastSubjectSequence {
            headers.append(name: Self.expectedLastSubjectSequenceHeader, value: String(expectedLastSubjectSequence))
        }
        if let expectedStream {
            try Self.checkName(expectedStream, "stream")
            headers.append(name: Self.expectedStreamHeader, value: expectedStream)
        }
        do {
            let pending = try await client.core.startRequest(
                subject: subject, headers: headers.isEmpty ? nil : headers, payload: payload,
                timeout: timeout ?? self.timeout)
            return PubAckFuture(pending: pending, subject: subject)
        } catch {
            throw Self.publishError(error, subject: subject)
        }
    }

    /// The ``JetStreamError`` of a failed publish request.
    static func publishError(_ error: any Error, subject: String) -> JetStreamError {
        switch (error as? NATSError)?.code {
        case .noResponders?:
            JetStreamError(.noResponders, "no stream stores \(subject) (or JetStream is not enabled)")
        case .invalidSubject?:
            JetStreamError(.invalidSubject, "invalid subject \(subject)")
        default:
            requestError(error, "publish to \(subject)")
        }
    }

    /// Publishes the UTF-8 bytes of `payload` and waits until a stream has stored it.
    @discardableResult
    public func publish(
        _ payload: String,
        to subject: String,
        messageID: String? = nil,
        expectedLastSequence: UInt64? = nil,
        expectedLastSubjectSequence: UInt64? = nil,
        expectedStream: String? = nil,
        headers: NATSHeaders? = nil,
        timeout: Duration? = nil
    ) async throws(JetStreamError) -> PubAck {
        try await publish(
            ByteBuffer(string: payload),
            to: subject,
            messageID: messageID,
            expectedLastSequence: expectedLastSequence,
            expectedLastSubjectSequence: expectedLastSubjectSequence,
            expectedStream: expectedStream,
            headers: headers,
            timeout: timeout
        )
    }
}

/// The acknowledgement of a publish on its way (``JetStreamContext/publishAsync(_:to:messageID:expectedLastSequence:expectedLastSubjectSequence:expectedStream:headers:timeout:)``).
public struct PubAckFuture: Sendable {
    let pending: NATSPendingReply
    /// The subject published to.
    public let subject: String

    /// Waits for the stream's ``PubAck``.
    /// - Throws: ``JetStreamError``: `noResponders` when no stream stores the subject, `wrongLastSequence`, `apiError`
    ///   for other refusals, `timeout` (the message may have been stored), `requestFailed`.
    public func value() async throws(JetStreamError) -> PubAck {
        let answer: NATSMessage
        do {
            answer = try await pending.value()
        } catch {
            throw JetStreamContext.publishError(error, subject: subject)
        }
        if let ack = PubAck(flatJSON: answer.payload) { return ack }
        return try JetStreamJSON.decode(PubAck.self, from: answer.payload)
    }
}
