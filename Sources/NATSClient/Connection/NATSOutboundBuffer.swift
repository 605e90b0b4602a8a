// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// The client's outbound bytes as a queue of bounded chunks with a small pool of recycled chunks.
//
// Publishing appends frames to the current chunk; a chunk that has no room for the next frame joins the
// queue of full chunks and a recycled one (or a new one) takes its place, so a burst never reallocates and
// copies one ever-growing buffer. The event loop hands every queued chunk to the channel in one flush
// (NIO writes them with one `writev`); when a write completes, its chunk is kept for reuse and emptied when it
// is reused, so steady publishing writes into memory that is already mapped and warm.

import NIOCore

struct NATSOutboundBuffer {
    /// Frames go to a new chunk once the current one holds this many bytes.
    static let chunkSize = 64 * 1024
    /// Recycled chunks kept at most, so a client retains at most 4 MiB after a burst. A smaller pool makes a
    /// publisher that outruns the socket fault in fresh pages for every chunk it could not recycle, which costs
    /// more CPU than the memory kept saves.
    static let maxSpareChunks = 64

    private var current = ByteBuffer()
    private var full = CircularBuffer<ByteBuffer>()
    private var fullBytes = 0
    private var inFlight = CircularBuffer<ByteBuffer>()
    /// Bytes handed to the channel whose writes have not completed.
    private(set) var inFlightBytes = 0
    private var spare = CircularBuffer<ByteBuffer>()

    /// Bytes queued and not yet handed to the channel.
    var pendingBytes: Int { fullBytes + current.readableBytes }

    /// Bytes queued or handed to the channel and not yet written to the socket.
    var unwrittenBytes: Int { pendingBytes + inFlightBytes }

    var isEmpty: Bool { pendingBytes == 0 }

    /// Whether a whole chunk waits to be written (a publisher on the event loop writes it in place).
    var hasFullChunk: Bool { fullBytes > 0 }

    /// Makes room for a frame of about `frameSize` bytes without growing a non-empty chunk.
    @inline(__always)
    mutating func reserve(_ frameSize: Int) {
        if current.writableBytes >= frameSize { return }
        if current.readableBytes > 0 {
            fullBytes += current.readableBytes
            full.append(current)
            current = reusedChunk()
        }
        if current.writableBytes < frameSize {
            current.reserveCapacity(minimumWritableBytes: Swift.max(frameSize, Self.chunkSize))
        }
    }

    mutating func write(_ command: NATSClientCommand) {
        reserve(64)
        current.writeNATSCommand(command)
    }

    /// Appends one PUB frame.
    @inline(__always)
    mutating func writePublish(subject: String, replyTo: String?, payload: ByteBuffer) {
        reserve(32 + subject.utf8.count + (replyTo?.utf8.count ?? 0) + payload.readableBytes)
        current.writeNATSPublish(subject: subject, replyTo: replyTo, payload: payload)
    }

    /// Appends one PUB or HPUB frame.
    @inline(__always)
    mutating func write(_ frame: borrowing NATSPublishFrame) {
        let headerBytes = frame.headerBlock?.readableBytes ?? 0
        reserve(
            48 + frame.subject.utf8.count + (frame.replyTo?.utf8.count ?? 0) + headerBytes + frame.payload.readableBytes
        )
        if let headerBlock = frame.headerBlock {
            current.writeNATSHeaderPublish(
                subject: frame.subject, replyTo: frame.replyTo, headerBlock: headerBlock, payload: frame.payload)
        } else {
            current.writeNATSPublish(subject: frame.subject, replyTo: frame.replyTo, payload: frame.payload)
        }
    }

    /// Every queued chunk, oldest first, now counted as in flight: call ``written()`` once per chunk when
    /// its write completes or fails.
    mutating func takeForWrite() -> [ByteBuffer] {
        var chunks: [ByteBuffer] = []
        chunks.reserveCapacity(full.count + 1)
        while let chunk = full.popFirst() { chunks.append(chunk) }
        fullBytes = 0
        if current.readableBytes > 0 {
            chunks.append(current)
            current = reusedChunk()
        }
        for chunk in chunks {
            inFlightBytes += chunk.readableBytes
            inFlight.append(chunk)
        }
        return chunks
    }

    /// The oldest in-flight chunk was written. Channel writes complete in order, so it is the first one. It is
    /// kept as it is and emptied only when reused: NIO completes a write's promise before it drops its copy of
    /// the buffer, so `clear()` here would usually find the storage shared and allocate fresh storage (fresh
    /// pages). Reused oldest first, by when the copy is gone.
    mutating func written() {
        guard let chunk = inFlight.popFirst() else { return }
        inFlightBytes -= chunk.readableBytes
        guard spare.count < Self.maxSpareChunks, chunk.capacity <= 2 * Self.chunkSize else { return }
        spare.append(chunk)
    }

    /// The spare chunk written longest ago, emptied, or a new one.
    private mutating func reusedChunk() -> ByteBuffer {
        guard var chunk = spare.popFirst() else { return ByteBuffer() }
        chunk.clear()
        return chunk
    }

    /// Drops everything queued (the connection closed for good).
    mutating func removeAll() {
        current = ByteBuffer()
        full.removeAll()
        fullBytes = 0
        inFlight.removeAll()
        inFlightBytes = 0
        spare.removeAll()
    }
}
