// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// Writers for client-to-server operations, straight into the outgoing ByteBuffer.

import NIOCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension ByteBuffer {
    /// Writes one command in wire format.
    mutating func writeNATSCommand(_ command: NATSClientCommand) {
        switch command {
        case .subscribe(let subject, let queue, let sid):
            writeStaticString("SUB ")
            writeString(subject)
            if let queue {
                writeInteger(UInt8(ascii: " "))
                writeString(queue)
            }
            writeInteger(UInt8(ascii: " "))
            writeDecimal(sid)
            writeStaticString("\r\n")
        case .unsubscribe(let sid, let max):
            writeStaticString("UNSUB ")
            writeDecimal(sid)
            if let max {
                writeInteger(UInt8(ascii: " "))
                writeDecimal(UInt64(max))
            }
            writeStaticString("\r\n")
        case .ping:
            writeStaticString("PING\r\n")
        case .pong:
            writeStaticString("PONG\r\n")
        }
    }

    /// Writes `CONNECT {json}\r\n`.
    mutating func writeNATSConnect(_ options: NATSConnectOptions) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding this plain struct cannot fail.
        let json = (try? encoder.encode(options)) ?? Data("{}".utf8)
        writeStaticString("CONNECT ")
        writeBytes(json)
        writeStaticString("\r\n")
    }

    /// Writes `PUB subject [reply] size\r\npayload\r\n`.
    ///
    /// The hot path of publishing: one capacity check and one exclusive access to the buffer for the whole
    /// frame, the pieces copied with `memcpy` (ByteBuffer's per-piece writers would each re-check capacity and
    /// uniqueness, once per piece of every frame).
    mutating func writeNATSPublish(subject: String, replyTo: String?, payload: ByteBuffer) {
        let written: Bool? = subject.utf8.withContiguousStorageIfAvailable { subjectBytes in
            payload.withUnsafeReadableBytes { payloadBytes in
                guard let replyTo else {
                    writeNATSPublishFrame(
                        subject: UnsafeRawBufferPointer(subjectBytes), replyTo: nil, payload: payloadBytes)
                    return true
                }
                return replyTo.utf8.withContiguousStorageIfAvailable { replyBytes in
                    writeNATSPublishFrame(
                        subject: UnsafeRawBufferPointer(subjectBytes),
                        replyTo: UnsafeRawBufferPointer(replyBytes),
                        payload: payloadBytes
                    )
                    return true
                } ?? false
            }
        }
        if written == true { return }
        // Strings without contiguous UTF-8 (bridged on Apple platforms): the piecewise writers.
        reserveCapacity(
            minimumWritableBytes: 32 + subject.utf8.count + (replyTo?.utf8.count ?? 0) + payload.readableBytes
        )
        writeStaticString("PUB ")
        writeString(subject)
        writeInteger(UInt8(ascii: " "))
        if let replyTo {
            writeString(replyTo)
            writeInteger(UInt8(ascii: " "))
        }
        writeDecimal(UInt64(payload.readableBytes))
        writeStaticString("\r\n")
        writeImmutableBuffer(payload)
        writeStaticString("\r\n")
    }

    /// Writes one `PUB` frame from raw pieces in a single unsafe write.
    mutating func writeNATSPublishFrame(
        subject: UnsafeRawBufferPointer,
        replyTo: UnsafeRawBufferPointer?,
        payload: UnsafeRawBufferPointer
    ) {
        let size = payload.count
        var digits = 1
        var rest = size / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        let frame = 4 + subject.count + 1 + (replyTo.map { $0.count + 1 } ?? 0) + digits + 2 + size + 2
        writeWithUnsafeMutableBytes(minimumWritableBytes: frame) { output in
            let base = output.baseAddress!
            var offset = 0
            @inline(__always) func put(_ bytes: UnsafeRawBufferPointer) {
                if let source = bytes.baseAddress, bytes.count > 0 {
                    (base + offset).copyMemory(from: source, byteCount: bytes.count)
                    offset += bytes.count
                }
            }
            @inline(__always) func put(_ byte: UInt8) {
                base.storeBytes(of: byte, toByteOffset: offset, as: UInt8.self)
                offset += 1
            }
            put(UInt8(ascii: "P"))
            put(UInt8(ascii: "U"))
            put(UInt8(ascii: "B"))
            put(UInt8(ascii: " "))
            put(subject)
            put(UInt8(ascii: " "))
            if let replyTo {
                put(replyTo)
                put(UInt8(ascii: " "))
            }
            var value = size
            var index = offset + digits
            offset = index
            repeat {
                index -= 1
                base.storeBytes(
                    of: UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10), toByteOffset: index, as: UInt8.self)
                value /= 10
            } while value > 0
            put(UInt8(ascii: "\r"))
            put(UInt8(ascii: "\n"))
            put(payload)
            put(UInt8(ascii: "\r"))
            put(UInt8(ascii: "\n"))
            return offset
        }
    }

    /// Writes `HPUB subject [reply] hdrlen totlen\r\nheaders payload\r\n`.
    ///
    /// `headerBlock` is the block ``writeNATSHeaderBlock(_:)`` wrote, encoded once by the caller.
    mutating func writeNATSHeaderPublish(
        subject: String,
        replyTo: String?,
        headerBlock block: ByteBuffer,
        payload: ByteBuffer
    ) {
        writeStaticString("HPUB ")
        writeString(subject)
        writeInteger(UInt8(ascii: " "))
        if let replyTo {
            writeString(replyTo)
            writeInteger(UInt8(ascii: " "))
        }
        writeDecimal(UInt64(block.readableBytes))
        writeInteger(UInt8(ascii: " "))
        writeDecimal(UInt64(block.readableBytes + payload.readableBytes))
        writeStaticString("\r\n")
        writeImmutableBuffer(block)
        writeImmutableBuffer(payload)
        writeStaticString("\r\n")
    }

    /// Writes a header block `NATS/1.0[ status[ description]]\r\n(Name: Value\r\n)*\r\n`.
    mutating func writeNATSHeaderBlock(_ headers: NATSHeaders) {
        writeStaticString("NATS/1.0")
        if let status = headers.status {
            writeInteger(UInt8(ascii: " "))
            writeDecimal(UInt64(status))
            if let description = headers.statusDescription {
                writeInteger(UInt8(ascii: " "))
                writeString(description)
            }
        }
        writeStaticString("\r\n")
        for field in headers {
            writeString(field.name)
            writeStaticString(": ")
            writeString(field.value)
            writeStaticString("\r\n")
        }
        writeStaticString("\r\n")
    }

    /// Writes an unsigned integer in ASCII decimal without building a String.
    mutating func writeDecimal(_ value: UInt64) {
        if value < 10 {
            writeInteger(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value))
            return
        }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes of scratch, enough for 20 digits
        var remaining = value
        var count = 0
        withUnsafeMutableBytes(of: &digits) { scratch in
            while remaining > 0 {
                count += 1
                scratch[24 - count] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: remaining % 10)
                remaining /= 10
            }
            _ = writeBytes(UnsafeRawBufferPointer(rebasing: scratch[(24 - count)...]))
        }
    }
}
