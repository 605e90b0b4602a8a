// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// What a client sent to the fake server, decoded from the wire: just enough of the client protocol to
// script a NATS server in a test.

import NIOCore

/// One client-to-server operation as the fake server read it.
enum FakeClientOperation: Equatable, Sendable, CustomStringConvertible {
    case connect(json: String)
    case ping
    case pong
    case subscribe(subject: String, queue: String?, sid: UInt64)
    case unsubscribe(sid: UInt64, max: Int?)
    case publish(subject: String, replyTo: String?, payload: String)
    case headerPublish(subject: String, replyTo: String?, headers: String, payload: String)

    var description: String {
        switch self {
        case .connect(let json): "CONNECT \(json)"
        case .ping: "PING"
        case .pong: "PONG"
        case .subscribe(let subject, let queue, let sid): "SUB \(subject) \(queue ?? "-") \(sid)"
        case .unsubscribe(let sid, let max): "UNSUB \(sid) \(max.map(String.init) ?? "-")"
        case .publish(let subject, let replyTo, let payload): "PUB \(subject) \(replyTo ?? "-") \(payload)"
        case .headerPublish(let subject, let replyTo, let headers, let payload):
            "HPUB \(subject) \(replyTo ?? "-") \(headers.debugDescription) \(payload)"
        }
    }
}

/// Failures of the fake server's decoder: the test's client wrote something that is not the NATS client protocol.
struct FakeProtocolViolation: Error, CustomStringConvertible {
    let description: String
}

/// Splits the client's byte stream into ``FakeClientOperation``s.
struct FakeClientOperationDecoder: ByteToMessageDecoder {
    typealias InboundOut = FakeClientOperation

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let operation = try Self.next(from: &buffer) else { return .needMoreData }
        context.fireChannelRead(wrapInboundOut(operation))
        return .continue
    }

    /// The next whole operation in `buffer`, consumed; `nil` (nothing consumed) while one is incomplete.
    static func next(from buffer: inout ByteBuffer) throws -> FakeClientOperation? {
        let view = buffer.readableBytesView
        guard let newline = view.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
        let lineLength = newline - view.startIndex + 1
        let hasCR = newline > view.startIndex && view[newline - 1] == UInt8(ascii: "\r")
        guard let line = buffer.getString(at: buffer.readerIndex, length: lineLength - (hasCR ? 2 : 1)) else {
            throw FakeProtocolViolation(description: "control line is not UTF-8")
        }
        let fields = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        guard let verb = fields.first?.uppercased() else { throw FakeProtocolViolation(description: "empty line") }
        switch verb {
        case "CONNECT":
            buffer.moveReaderIndex(forwardBy: lineLength)
            return .connect(json: String(line.dropFirst("CONNECT ".count)))
        case "PING":
            buffer.moveReaderIndex(forwardBy: lineLength)
            return .ping
        case "PONG":
            buffer.moveReaderIndex(forwardBy: lineLength)
            return .pong
        case "SUB":
            guard fields.count == 3 || fields.count == 4, let sid = UInt64(fields.last!) else {
                throw FakeProtocolViolation(description: "bad SUB: \(line)")
            }
            buffer.moveReaderIndex(forwardBy: lineLength)
            return .subscribe(subject: fields[1], queue: fields.count == 4 ? fields[2] : nil, sid: sid)
        case "UNSUB":
            guard fields.count == 2 || fields.count == 3, let sid = UInt64(fields[1]) else {
                throw FakeProtocolViolation(description: "bad UNSUB: \(line)")
            }
            buffer.moveReaderIndex(forwardBy: lineLength)
            return .unsubscribe(sid: sid, max: fields.count == 3 ? Int(fields[2]) : nil)
        case "PUB":
            guard fields.count == 3 || fields.count == 4, let size = Int(fields.last!) else {
                throw FakeProtocolViolation(description: "bad PUB: \(line)")
            }
            guard let body = try Self.body(after: lineLength, size: size, in: &buffer) else { return nil }
            return .publish(subject: fields[1], replyTo: fields.count == 4 ? fields[2] : nil, payload: body)
        case "HPUB":
            guard fields.count == 4 || fields.count == 5, let total = Int(fields.last!),
                let headerSize = Int(fields[fields.count - 2]), headerSize <= total
            else {
                throw FakeProtocolViolation(description: "bad HPUB: \(line)")
            }
            guard let body = try Self.body(after: lineLength, size: total, in: &buffer) else { return nil }
            let utf8 = Array(body.utf8)
            return .headerPublish(
                subject: fields[1],
                replyTo: fields.count == 5 ? fields[2] : nil,
                headers: String(decoding: utf8[..<headerSize], as: UTF8.self),
                payload: String(decoding: utf8[headerSize...], as: UTF8.self)
            )
        default:
            throw FakeProtocolViolation(description: "unknown operation: \(line)")
        }
    }

    /// The `size` bytes after the control line and their CRLF, consumed with the line; `nil` until all arrived.
    private static func body(after lineLength: Int, size: Int, in buffer: inout ByteBuffer) throws -> String? {
        guard buffer.readableBytes >= lineLength + size + 2 else { return nil }
        let start = buffer.readerIndex + lineLength
        guard buffer.getString(at: start + size, length: 2) == "\r\n" else {
            throw FakeProtocolViolation(description: "payload of \(size) bytes not followed by CRLF")
        }
        let body = buffer.getString(at: start, length: size) ?? ""
        buffer.moveReaderIndex(forwardBy: lineLength + size + 2)
        return body
    }
}
