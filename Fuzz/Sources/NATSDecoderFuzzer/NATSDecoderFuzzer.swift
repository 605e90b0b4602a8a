// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// libFuzzer target `nats-decoder`: feeds arbitrary bytes to NATSProtocolDecoder.parse as a server stream.
//
// Invariants (a violation traps, so libFuzzer saves the input):
// - the decoded operations, the error that stops decoding and the bytes left over are the same whether the
//   input arrives whole, split in two at a position taken from the input (decoded with zero-copy payloads),
//   or one byte at a time (inputs up to 128 bytes), and whether messages are taken the channel handler's way
//   (`parseMessageFrame` first, the payload read from where the frame says, `parse` for anything else);
// - `parse` returning nil consumes nothing; returning an operation consumes at least one byte, and the
//   consumed frame ends with LF;
// - a control-line-only operation (PING, PONG, +OK, -ERR, INFO) is no longer than maxControlLine;
// - a message's payload (headers included) is at most maxPayload, its subject and reply are non-empty and
//   hold no space or tab, and HMSG is the only way headers appear.

// NATSProtocolDecoder and the types it decodes come from NATSProtocol/, a link to Sources/NATSClient/Protocol: the
// decoder's own sources, compiled into this module (see Fuzz/Package.swift).

import FuzzSupport
import NIOCore

private let maxControlLine = 1024
private let maxPayload = 1 << 16

@_cdecl("NATSDecoderFuzzer_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv, fuzzOne)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    fuzzOne(UnsafeRawBufferPointer(start: data, count: data == nil ? 0 : size))
    return 0
}

/// What decoding a stream produced.
private struct Outcome: Equatable {
    var operations: [NATSServerOperation] = []
    /// The error code that stopped decoding, if any.
    var error: String?
    /// Bytes left undecoded (an incomplete frame) when no error stopped decoding.
    var leftover = 0
}

func fuzzOne(_ bytes: UnsafeRawBufferPointer) {
    let input = Array(bytes)
    let whole = decode(input, chunks: [input.count], zeroCopy: false)
    let splitAt = input.isEmpty ? 0 : Int(input[0]) % (input.count + 1)
    let split = decode(input, chunks: [splitAt, input.count - splitAt], zeroCopy: true)
    invariant(
        whole == split, "decoding split in two (at \(splitAt)) with zero-copy payloads differs from decoding whole")
    let framed = decode(input, chunks: [splitAt, input.count - splitAt], zeroCopy: true, framesFirst: true)
    invariant(whole == framed, "decoding messages as frames (the channel handler's way) differs from parse")
    if input.count <= 128 {
        let trickle = decode(input, chunks: Array(repeating: 1, count: input.count), zeroCopy: false)
        invariant(whole == trickle, "decoding one byte at a time differs")
    }
}

/// Decodes `input` arriving in chunks of the given sizes, checking the per-call invariants.
private func decode(_ input: [UInt8], chunks: [Int], zeroCopy: Bool, framesFirst: Bool = false) -> Outcome {
    var outcome = Outcome()
    var pending = ByteBuffer()
    var offset = 0
    for size in chunks {
        pending.writeBytes(input[offset..<(offset + size)])
        offset += size
        while true {
            let before = pending.readerIndex
            let readable = pending.readableBytes
            let unparsed = pending.readableBytesView
            let operation: NATSServerOperation?
            do {
                if framesFirst, let message = try parseFrame(&pending) {
                    operation = message
                } else {
                    operation = try NATSProtocolDecoder.parse(
                        &pending, maxControlLine: maxControlLine, maxPayload: maxPayload, zeroCopyPayloads: zeroCopy)
                }
            } catch {
                outcome.error = "\(error.code)"
                return outcome
            }
            guard let operation else {
                invariant(
                    pending.readerIndex == before && pending.readableBytes == readable,
                    "an incomplete frame consumed bytes")
                break
            }
            let consumed = pending.readerIndex - before
            invariant(consumed > 0, "an operation consumed no bytes")
            let frame = Array(unparsed.prefix(consumed))
            invariant(frame.last == UInt8(ascii: "\n"), "a frame does not end with LF")
            check(operation, frame: frame)
            outcome.operations.append(operation)
        }
    }
    outcome.leftover = pending.readableBytes
    return outcome
}

/// A message the channel handler's way: `parseMessageFrame`, then the payload from where the frame says it is.
private func parseFrame(_ pending: inout ByteBuffer) throws(NATSProtocolError) -> NATSServerOperation? {
    let before = pending
    guard
        let frame = try NATSProtocolDecoder.parseMessageFrame(
            &pending, maxControlLine: maxControlLine, maxPayload: maxPayload)
    else {
        invariant(
            pending == before && pending.readerIndex == before.readerIndex, "a frame that is not taken consumed bytes")
        return nil
    }
    invariant(pending.readerIndex == frame.end, "a frame's end is not where parsing stopped")
    let payload = before.getSlice(at: frame.payloadIndex, length: frame.payloadLength)
    invariant(payload != nil, "a frame's payload is outside the bytes it was parsed from")
    return .message(sid: frame.sid, frame.message(payload: payload!))
}

private func check(_ operation: NATSServerOperation, frame: [UInt8]) {
    switch operation {
    case .message(_, let message):
        let isHMSG = frame.count >= 5 && frame[0..<4].map { $0 & 0xDF } == Array("HMSG".utf8)
        invariant((message.headers != nil) == isHMSG, "headers present iff the frame is HMSG")
        invariant(message.payload.readableBytes <= maxPayload, "payload larger than maxPayload")
        invariant(isToken(message.subject), "subject is empty or holds a separator")
        if let reply = message.replyTo { invariant(isToken(reply), "reply subject is empty or holds a separator") }
    case .ping, .pong, .ok, .error, .info:
        invariant(frame.count <= maxControlLine, "a control line longer than maxControlLine was accepted")
    }
}

private func isToken(_ text: String) -> Bool {
    !text.isEmpty
        && !text.utf8.contains(where: {
            $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\n")
        })
}
