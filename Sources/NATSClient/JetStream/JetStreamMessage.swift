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
    ///
    /// - Parameters:
    ///   - stream: The stream the delivery is expected from, if known: its name is reused instead of read again.
    ///   - consumer: The consumer likewise.
    init?(_ message: NATSMessage, client: NATSClient, stream: String? = nil, consumer: String? = nil) {
        guard let reply = message.replyTo,
            let metadata = JetStreamMessageMetadata(ackSubject: reply, stream: stream, consumer: consumer)
        else {
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
            // The ack subject parsed as one, which needs it free of whitespace: no need to check it again.
            try client.core.publish(
                validSubject: reply, replyTo: nil, headers: nil,
                payload: kind == .ack ? JetStreamAck.ackPayload : ByteBuffer(string: kind.payload))
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
        self.init(ackSubject: ackSubject, stream: nil, consumer: nil)
    }

    /// Parses an ack subject, reusing `stream` and `consumer` when the subject names them: a fetch knows both, and
    /// making the two strings again for every message stood out in profiles of a fetch.
    init?(ackSubject: String, stream: String?, consumer: String?) {
        var subject = ackSubject
        // One pass over the UTF-8 bytes, without an array of tokens: every delivered message is parsed here.
        guard let parsed = subject.withUTF8({ Self.parse($0, stream: stream, consumer: consumer) }) else {
            return nil
        }
        self = parsed
    }

    /// `known` if its UTF-8 is `bytes`, else a new string of them.
    private static func name(_ bytes: UnsafeBufferPointer<UInt8>, known: String?) -> String {
        if var known, known.utf8.count == bytes.count,
            known.withUTF8({ $0.elementsEqual(bytes) })
        {
            return known
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The metadata of the ack subject `bytes`: 9 tokens (`$JS.ACK.` and 7 fields) or 11-12 (with domain and
    /// account hash first, and a random token last).
    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>, stream: String?, consumer: String?)
        -> JetStreamMessageMetadata?
    {
        // `$JS.ACK.`, compared as one 8-byte word: a generic `starts(with:)` stood out in profiles of a fetch.
        let prefix = 8
        guard bytes.count > prefix,
            UnsafeRawPointer(bytes.baseAddress!).loadUnaligned(as: UInt64.self)
                == UInt64(littleEndian: 0x2E4B_4341_2E53_4A24)
        else { return nil }
        // The ends of the tokens after the prefix: at most 10 (an eleventh ends the parse).
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: 10) { ends -> JetStreamMessageMetadata? in
            var count = 0
            var index = prefix
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: ".") {
                    guard count < 9 else { return nil }
                    ends[count] = index
                    count += 1
                } else if byte <= 0x20 || byte == 0x7F {
                    // Whitespace or a control character: not a subject the server wrote (and `ack` publishes to an
                    // ack subject without checking it again).
                    return nil
                }
                index += 1
            }
            ends[count] = bytes.count
            count += 1
            func token(_ number: Int) -> UnsafeBufferPointer<UInt8> {
                let start = number == 0 ? prefix : ends[number - 1] + 1
                return UnsafeBufferPointer(rebasing: bytes[start..<ends[number]])
            }
            let domain: String?
            let first: Int
            switch count {
            case 7:
                domain = nil
                first = 0
            case 9, 10:
                let name = token(0)
                domain = name.count == 1 && name[0] == UInt8(ascii: "_") ? nil : String(decoding: name, as: UTF8.self)
                first = 2
            default:
                return nil
            }
            guard let delivered = unsigned(token(first + 2)), let streamSequence = unsigned(token(first + 3)),
                let consumerSequence = unsigned(token(first + 4)), let timestamp = signed(token(first + 5)),
                let pending = unsigned(token(first + 6))
            else { return nil }
            return JetStreamMessageMetadata(
                domain: domain, stream: name(token(first), known: stream),
                consumer: name(token(first + 1), known: consumer), delivered: delivered,
                streamSequence: streamSequence, consumerSequence: consumerSequence, timestamp: timestamp,
                pending: pending)
        }
    }

    /// Decimal digits as a `UInt64`; `nil` for none, another byte or an overflow.
    private static func unsigned(_ digits: UnsafeBufferPointer<UInt8>) -> UInt64? {
        guard !digits.isEmpty else { return nil }
        var value: UInt64 = 0
        for byte in digits {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let (times, overflowed) = value.multipliedReportingOverflow(by: 10)
            let (sum, carried) = times.addingReportingOverflow(UInt64(byte - UInt8(ascii: "0")))
            guard !overflowed, !carried else { return nil }
            value = sum
        }
        return value
    }

    /// An optionally negative decimal as an `Int64`.
    private static func signed(_ digits: UnsafeBufferPointer<UInt8>) -> Int64? {
        if digits.first == UInt8(ascii: "-") {
            guard let magnitude = unsigned(UnsafeBufferPointer(rebasing: digits.dropFirst())),
                magnitude <= UInt64(Int64.max) + 1
            else { return nil }
            return magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude)
        }
        guard let value = unsigned(digits), value <= UInt64(Int64.max) else { return nil }
        return Int64(value)
    }
}
