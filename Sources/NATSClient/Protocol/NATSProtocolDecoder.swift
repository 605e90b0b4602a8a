// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// Parses the server-to-client NATS protocol in place on ByteBuffer: the control line is located with a
// byte search, arguments are read without building intermediate strings, and payloads are sliced (no copy)
// by their declared length, never by scanning for CRLF.

public import NIOCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A `ByteToMessageDecoder` for the server side of the NATS protocol.
///
/// It produces ``NATSServerOperation`` values. A control line longer than ``maxControlLine`` (or with no
/// line end within that many bytes) and a payload longer than ``maxPayload`` are errors; so is any
/// malformed frame. Operation names are matched case-insensitively.
public struct NATSProtocolDecoder: ByteToMessageDecoder, Sendable {
    /// The decoded operation.
    public typealias InboundOut = NATSServerOperation

    /// Longest accepted control line, including CRLF. Server INFO can exceed 4 KiB, so the default is larger.
    public let maxControlLine: Int
    /// Largest accepted message (headers plus payload).
    public let maxPayload: Int
    /// Whether payloads are slices of the read buffer (no copy) or copied into their own buffer.
    ///
    /// Slices keep the whole read buffer alive while a message waits in a subscription, and then every
    /// further read must copy that buffer (copy-on-write). The decoder's default therefore copies each payload
    /// into a buffer of its own, as nats.go does; zero-copy suits consumers that drop messages at once or copy
    /// them out themselves, as the client's channel handler does (all payloads of one read into one buffer).
    public let zeroCopyPayloads: Bool

    /// Creates a decoder.
    public init(maxControlLine: Int = 64 * 1024, maxPayload: Int = 64 * 1024 * 1024, zeroCopyPayloads: Bool = false) {
        self.maxControlLine = maxControlLine
        self.maxPayload = maxPayload
        self.zeroCopyPayloads = zeroCopyPayloads
    }

    /// Decodes one operation, or asks for more bytes.
    public mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard
            let operation = try Self.parse(
                &buffer,
                maxControlLine: maxControlLine,
                maxPayload: maxPayload,
                zeroCopyPayloads: zeroCopyPayloads
            )
        else {
            return .needMoreData
        }
        context.fireChannelRead(Self.wrapInboundOut(operation))
        return .continue
    }

    /// Decodes what is left at end of stream; a partial frame is dropped with the connection.
    public mutating func decodeLast(
        context: ChannelHandlerContext,
        buffer: inout ByteBuffer,
        seenEOF: Bool
    ) throws -> DecodingState {
        try decode(context: context, buffer: &buffer)
    }

    /// Parses one operation from the front of `buffer`, consuming it; returns `nil` (consuming nothing)
    /// if the frame is incomplete. This is the decoder's whole logic, usable without a channel.
    public static func parse(
        _ buffer: inout ByteBuffer,
        maxControlLine: Int = 64 * 1024,
        maxPayload: Int = 64 * 1024 * 1024,
        zeroCopyPayloads: Bool = false
    ) throws(NATSProtocolError) -> NATSServerOperation? {
        guard var line = try controlLine(buffer, maxControlLine: maxControlLine) else { return nil }
        let lineEnd = line.end

        switch line.op {
        case .msg, .hmsg:
            guard let frame = try frame(buffer, &line, maxPayload: maxPayload) else { return nil }
            var payload = buffer.getSlice(at: frame.payloadIndex, length: frame.payloadLength)!
            if !zeroCopyPayloads {
                var owned = allocator.buffer(capacity: frame.payloadLength)
                owned.writeBuffer(&payload)
                payload = owned
            }
            buffer.moveReaderIndex(to: frame.end)
            return .message(sid: frame.sid, frame.message(payload: payload))

        case .ping:
            buffer.moveReaderIndex(to: lineEnd)
            return .ping

        case .pong:
            buffer.moveReaderIndex(to: lineEnd)
            return .pong

        case .ok:
            buffer.moveReaderIndex(to: lineEnd)
            return .ok

        case .err:
            var text = line.arguments.rest(in: buffer)
            if text.hasPrefix("'"), text.hasSuffix("'"), text.count >= 2 {
                text = String(text.dropFirst().dropLast())
            }
            buffer.moveReaderIndex(to: lineEnd)
            return .error(text)

        case .info:
            let json = line.arguments.restBytes(in: buffer)
            let info: NATSServerInfo
            do {
                info = try JSONDecoder().decode(NATSServerInfo.self, from: Data(json))
            } catch {
                throw NATSProtocolError(.invalidInfo, "INFO JSON does not decode")
            }
            buffer.moveReaderIndex(to: lineEnd)
            return .info(info)

        case .unknown:
            throw NATSProtocolError(.unknownOperation, "unknown operation of \(line.opLength) bytes")
        }
    }

    /// Parses a `MSG` or `HMSG` frame from the front of `buffer`, consuming it but leaving its payload where it is
    /// (at ``NATSMessageFrame/payloadIndex``); `nil` (consuming nothing) if the next frame is not a complete message
    /// (then ``parse(_:maxControlLine:maxPayload:zeroCopyPayloads:)`` tells what it is).
    ///
    /// The channel handler's path for the common frame: a message comes back as itself, not inside a
    /// ``NATSServerOperation``, whose copies (it also holds the server's `INFO`) cost more than the message's, and
    /// without a slice of the read buffer, which the handler would replace with its copy of the payload.
    static func parseMessageFrame(
        _ buffer: inout ByteBuffer,
        maxControlLine: Int = 64 * 1024,
        maxPayload: Int = 64 * 1024 * 1024
    ) throws(NATSProtocolError) -> NATSMessageFrame? {
        guard var line = try controlLine(buffer, maxControlLine: maxControlLine), line.op == .msg || line.op == .hmsg
        else { return nil }
        guard let frame = try frame(buffer, &line, maxPayload: maxPayload) else { return nil }
        buffer.moveReaderIndex(to: frame.end)
        return frame
    }

    /// The control line at the front of a buffer: where it starts and ends, its operation and its arguments.
    private struct ControlLine {
        let start: Int
        /// The index after its LF.
        let end: Int
        let opLength: Int
        let op: Op
        var arguments: Arguments
    }

    /// Finds the control line at the front of `buffer`; `nil` if its LF has not arrived yet.
    @inline(__always)
    private static func controlLine(_ buffer: ByteBuffer, maxControlLine: Int) throws(NATSProtocolError)
        -> ControlLine?
    {
        let start = buffer.readerIndex
        let available = buffer.readableBytes
        guard available > 0 else { return nil }
        let searchLength = min(available, maxControlLine)
        // One pass over the raw bytes: the LF, a CR before it, the operation's name.
        let scan: (newline: Int, lineLength: Int, opLength: Int, op: Op)? = buffer.withUnsafeReadableBytes { bytes in
            var newline = 0
            while newline < searchLength, bytes[newline] != UInt8(ascii: "\n") { newline += 1 }
            guard newline < searchLength else { return nil }
            // Line content without CR LF.
            var lineLength = newline
            if lineLength > 0, bytes[lineLength - 1] == UInt8(ascii: "\r") { lineLength -= 1 }
            var opLength = 0
            while opLength < lineLength, bytes[opLength] != UInt8(ascii: " "), bytes[opLength] != UInt8(ascii: "\t") {
                opLength += 1
            }
            return (newline, lineLength, opLength, opCode(bytes, length: opLength))
        }
        guard let scan else {
            if available >= maxControlLine {
                throw NATSProtocolError(.controlLineTooLong, "no line end within \(maxControlLine) bytes")
            }
            return nil
        }
        return ControlLine(
            start: start, end: start + scan.newline + 1, opLength: scan.opLength, op: scan.op,
            arguments: Arguments(start: start + scan.opLength, end: start + scan.lineLength))
    }

    /// The `MSG` or `HMSG` frame whose control line is `line`, consuming nothing; `nil` until its payload and
    /// closing CRLF have arrived.
    @inline(__always)
    private static func frame(
        _ buffer: ByteBuffer, _ line: inout ControlLine, maxPayload: Int
    ) throws(NATSProtocolError) -> NATSMessageFrame? {
        line.arguments.split(buffer)
        let count = line.arguments.count
        let hasHeaders = line.op == .hmsg
        // MSG <subject> <sid> [reply] <size>; HMSG <subject> <sid> [reply] <header size> <total size>.
        let minimum = hasHeaders ? 4 : 3
        guard count == minimum || count == minimum + 1 else { throw argumentCountError(count, hasHeaders: hasHeaders) }
        let totalLength = try line.arguments.integer(count - 1, in: buffer)
        let headerLength = hasHeaders ? try line.arguments.integer(count - 2, in: buffer) : 0
        guard headerLength <= totalLength else {
            throw NATSProtocolError(.invalidArguments, "header length exceeds total length")
        }
        guard totalLength <= maxPayload else { throw tooLargeError(totalLength) }
        guard buffer.readableBytes >= (line.end - line.start) + totalLength + 2 else { return nil }
        let payloadEnd = line.end + totalLength - line.start
        let closed = buffer.withUnsafeReadableBytes { bytes in
            bytes[payloadEnd] == UInt8(ascii: "\r") && bytes[payloadEnd + 1] == UInt8(ascii: "\n")
        }
        guard closed else {
            throw NATSProtocolError(.invalidPayload, "payload is not followed by CRLF")
        }
        let subject = line.arguments.string(0, in: buffer)
        let sid = try line.arguments.integer(1, in: buffer)
        let reply = count == minimum + 1 ? line.arguments.string(2, in: buffer) : nil
        let headers = hasHeaders ? try headerBlock(buffer, at: line.end, length: headerLength) : nil
        return NATSMessageFrame(
            sid: UInt64(sid), subject: subject, replyTo: reply, headers: headers,
            payloadIndex: line.end + headerLength, payloadLength: totalLength - headerLength)
    }

    private enum Op {
        case msg, hmsg, ping, pong, ok, err, info, unknown
    }

    // The errors of `frame`, out of line: their text is built only when one is thrown.
    @inline(never)
    private static func argumentCountError(_ count: Int, hasHeaders: Bool) -> NATSProtocolError {
        let minimum = hasHeaders ? 4 : 3
        return NATSProtocolError(
            .invalidArguments,
            "\(hasHeaders ? "HMSG" : "MSG") takes \(minimum) or \(minimum + 1) arguments, got \(count)")
    }

    @inline(never)
    private static func tooLargeError(_ length: Int) -> NATSProtocolError {
        NATSProtocolError(.invalidPayload, "message of \(length) bytes is too large")
    }

    /// The headers of an HMSG frame (out of line: the MSG path, nearly every frame, stays small).
    @inline(never)
    private static func headerBlock(_ buffer: ByteBuffer, at index: Int, length: Int) throws(NATSProtocolError)
        -> NATSHeaders
    {
        try parseHeaders(buffer.getSlice(at: index, length: length)!)
    }

    /// Identifies the operation from its name, the first `length` bytes of `bytes` (ASCII case-insensitive).
    @inline(__always)
    private static func opCode(_ bytes: UnsafeRawBufferPointer, length: Int) -> Op {
        guard length >= 3, length <= 4 else { return .unknown }
        var word: UInt32 = 0
        for offset in 0..<length {
            var byte = bytes[offset]
            if byte >= UInt8(ascii: "a"), byte <= UInt8(ascii: "z") { byte -= 32 }
            word = (word << 8) | UInt32(byte)
        }
        switch (length, word) {
        case (3, 0x4D_5347): return .msg  // MSG
        case (4, 0x484D_5347): return .hmsg  // HMSG
        case (4, 0x5049_4E47): return .ping  // PING
        case (4, 0x504F_4E47): return .pong  // PONG
        case (3, 0x2B_4F4B): return .ok  // +OK
        case (4, 0x2D45_5252): return .err  // -ERR
        case (4, 0x494E_464F): return .info  // INFO
        default: return .unknown
        }
    }

    private static let allocator = ByteBufferAllocator()

    /// Space/tab separated arguments of a control line, located by offsets in the buffer.
    ///
    /// It holds offsets only; each call takes the buffer they index (holding a copy of the buffer cost a retain and
    /// a release of its storage per frame).
    private struct Arguments {
        let start: Int
        let end: Int
        private var ranges = TokenRanges()

        init(start: Int, end: Int) {
            self.start = start
            self.end = end
        }

        var count: Int { ranges.count }

        /// Splits on spaces and tabs; more than five tokens is reported as six (always invalid).
        mutating func split(_ buffer: ByteBuffer) {
            var result = TokenRanges()
            let base = buffer.readerIndex
            buffer.withUnsafeReadableBytes { bytes in
                var index = start - base
                let stop = end - base
                while index < stop {
                    while index < stop, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") {
                        index += 1
                    }
                    let tokenStart = index
                    while index < stop, bytes[index] != UInt8(ascii: " "), bytes[index] != UInt8(ascii: "\t") {
                        index += 1
                    }
                    if index > tokenStart { result.append(tokenStart + base, index - tokenStart) }
                }
            }
            ranges = result
        }

        @inline(__always)
        func string(_ index: Int, in buffer: ByteBuffer) -> String {
            let (offset, length) = ranges[index]
            return buffer.getString(at: offset, length: length) ?? ""
        }

        @inline(__always)
        func integer(_ index: Int, in buffer: ByteBuffer) throws(NATSProtocolError) -> Int {
            let (offset, length) = ranges[index]
            guard length > 0, length <= 18 else { throw NATSProtocolError(.invalidArguments, "invalid number") }
            let first = offset - buffer.readerIndex
            let value: Int? = buffer.withUnsafeReadableBytes { bytes in
                var value = 0
                for position in first..<(first + length) {
                    let digit = bytes[position] &- UInt8(ascii: "0")
                    guard digit < 10 else { return nil }
                    value = value * 10 + Int(digit)
                }
                return value
            }
            guard let value else { throw NATSProtocolError(.invalidArguments, "invalid number") }
            return value
        }

        func restBytes(in buffer: ByteBuffer) -> [UInt8] {
            var offset = start
            while offset < end, let byte = buffer.getInteger(at: offset, as: UInt8.self),
                byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
            {
                offset += 1
            }
            return buffer.getBytes(at: offset, length: end - offset) ?? []
        }

        func rest(in buffer: ByteBuffer) -> String {
            String(decoding: restBytes(in: buffer), as: UTF8.self)
        }
    }

    /// Up to five (offset, length) pairs stored inline: no allocation per control line.
    private struct TokenRanges {
        private var storage: (Int, Int, Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        private(set) var count = 0

        mutating func append(_ offset: Int, _ length: Int) {
            guard count < 5 else {
                count = 6
                return
            }
            withUnsafeMutableBytes(of: &storage) { raw in
                let slots = raw.bindMemory(to: Int.self)
                slots[count * 2] = offset
                slots[count * 2 + 1] = length
            }
            count += 1
        }

        subscript(index: Int) -> (Int, Int) {
            var copy = storage
            return withUnsafeBytes(of: &copy) { raw in
                let slots = raw.bindMemory(to: Int.self)
                return (slots[index * 2], slots[index * 2 + 1])
            }
        }
    }
}
