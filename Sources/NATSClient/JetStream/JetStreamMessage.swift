// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import NIOCore

/// A message a pull consumer delivered, with its place in the stream and the acknowledgements it takes.
///
/// A consumer with explicit acks delivers the message again after its `ackWait` unless it is acknowledged:
/// ``ack(_:)`` (or ``ackAcknowledged(_:timeout:)``, which waits until the server has it) with ``JetStreamAck/ack``
/// when it is handled, ``JetStreamAck/nak(delay:)`` to have it delivered again, ``JetStreamAck/inProgress`` to
/// restart the `ackWait`, ``JetStreamAck/terminate`` to never deliver it again.
public struct JetStreamMessage: Sendable {
    /// The message as delivered: the subject it was published to, its headers and payload; its reply subject is the
    /// ack subject.
    public var message: NATSMessage
    /// Where the message stands in the stream and the consumer.
    public var metadata: JetStreamMessageMetadata
    private let client: NATSClient

    /// Creates a message from a delivery whose reply subject is a JetStream ack subject; `nil` otherwise.
    init?(_ message: NATSMessage, client: NATSClient) {
        guard let reply = message.replyTo, let metadata = JetStreamMessageMetadata(ackSubject: reply) else {
            return nil
        }
        self.message = message
        self.metadata = metadata
        self.client = client
    }

    /// The subject the message was published to.
    public var subject: String { message.subject }
    /// The payload.
    public var payload: ByteBuffer { message.payload }
    /// The headers the publisher sent, if any.
    public var headers: NATSHeaders? { message.headers }

    /// Sends `kind` without waiting for the server.
    ///
    /// - Throws: ``JetStreamError`` `requestFailed` when the ack could not be queued (closed connection, full buffer).
    public func ack(_ kind: JetStreamAck = .ack) throws(JetStreamError) {
        guard let reply = message.replyTo else { return }
        do {
            try client.publish(kind == .ack ? JetStreamAck.ackPayload : ByteBuffer(string: kind.payload), to: reply)
        } catch {
            throw JetStreamError(.requestFailed, "cannot send \(kind): \(error)", underlying: error)
        }
    }

    /// Sends `kind` and waits until the server confirms it received it (an "acknowledged ack").
    ///
    /// - Throws: ``JetStreamError`` `noResponders` when nothing took the ack (the consumer is gone), `timeout`,
    ///   `requestFailed`.
    public func ackAcknowledged(_ kind: JetStreamAck = .ack, timeout: Duration = .seconds(5))
        async throws(JetStreamError)
    {
        guard let reply = message.replyTo else { return }
        do {
            _ = try await client.request(kind.payload, to: reply, timeout: timeout)
        } catch NATSError.Code.noResponders {
            throw JetStreamError(.noResponders, "nothing took the ack of \(metadata.stream)/\(metadata.consumer)")
        } catch {
            throw JetStreamContext.requestError(error, "\(kind)")
        }
    }
}

/// An acknowledgement of a ``JetStreamMessage``.
public enum JetStreamAck: Sendable, Equatable, CustomStringConvertible {
    /// Handled (`+ACK`).
    case ack
    /// Not handled: deliver it again, after `delay` if given (`-NAK`, `-NAK {"delay":ns}`).
    case nak(delay: Duration? = nil)
    /// Still being handled: restart the ack wait (`+WPI`).
    case inProgress
    /// Never deliver it again (`+TERM`).
    case terminate

    /// What is sent to the ack subject.
    public var payload: String {
        switch self {
        case .ack: "+ACK"
        case .nak(nil): "-NAK"
        case .nak(let delay?): "-NAK {\"delay\":\(JetStreamJSON.nanoseconds(delay))}"
        case .inProgress: "+WPI"
        case .terminate: "+TERM"
        }
    }

    /// The payload.
    public var description: String { payload }

    /// The payload of ``ack``, made once: a consumer sends it for nearly every message.
    static let ackPayload = ByteBuffer(string: "+ACK")
}

/// Where a delivered message stands, from its ack subject.
///
/// The ack subject is `$JS.ACK.<stream>.<consumer>.<delivered>.<stream seq>.<consumer seq>.<timestamp>.<pending>`,
/// or, from servers with domains, `$JS.ACK.<domain>.<account hash>.<stream>.<consumer>.<delivered>.<stream seq>.`
/// `<consumer seq>.<timestamp>.<pending>.<random>` (a domain of `_` is none).
public struct JetStreamMessageMetadata: Sendable, Equatable {
    /// The JetStream domain, if the server named one.
    public var domain: String?
    /// The stream.
    public var stream: String
    /// The consumer.
    public var consumer: String
    /// How many times the message was delivered (1 the first time).
    public var delivered: UInt64
    /// The message's sequence in the stream.
    public var streamSequence: UInt64
    /// The delivery's sequence in the consumer.
    public var consumerSequence: UInt64
    /// When the message was stored, in nanoseconds since 1970.
    public var timestamp: Int64
    /// How many messages of the consumer wait after this one.
    public var pending: UInt64

    /// Creates metadata.
    public init(
        domain: String? = nil,
        stream: String,
        consumer: String,
        delivered: UInt64,
        streamSequence: UInt64,
        consumerSequence: UInt64,
        timestamp: Int64,
        pending: UInt64
    ) {
        self.domain = domain
        self.stream = stream
        self.consumer = consumer
        self.delivered = delivered
        self.streamSequence = streamSequence
        self.consumerSequence = consumerSequence
        self.timestamp = timestamp
        self.pending = pending
    }

    /// Parses an ack subject; `nil` when `ackSubject` is not one.
    public init?(ackSubject: String) {
        // Split as UTF-8, without a String per token: every delivered message is parsed here.
        let tokens = ackSubject.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
            .map(Substring.init)
        guard tokens.count >= 9, tokens[0] == "$JS", tokens[1] == "ACK" else { return nil }
        let fields: ArraySlice<Substring>
        switch tokens.count {
        case 9:
            domain = nil
            fields = tokens[2...]
        case 11, 12:
            domain = tokens[2] == "_" ? nil : String(tokens[2])
            fields = tokens[4..<11]
        default:
            return nil
        }
        let values = fields.startIndex
        guard fields.count == 7, let delivered = UInt64(fields[values + 2]),
            let streamSequence = UInt64(fields[values + 3]), let consumerSequence = UInt64(fields[values + 4]),
            let timestamp = Int64(fields[values + 5]), let pending = UInt64(fields[values + 6])
        else { return nil }
        stream = String(fields[values])
        consumer = String(fields[values + 1])
        self.delivered = delivered
        self.streamSequence = streamSequence
        self.consumerSequence = consumerSequence
        self.timestamp = timestamp
        self.pending = pending
    }
}
