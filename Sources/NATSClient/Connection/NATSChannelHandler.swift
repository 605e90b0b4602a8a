// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// The channel handler: it reads the server's bytes itself (cumulating partial frames and parsing them with
// NATSProtocolDecoder in place), hands the messages of one read to the connection core together, and
// forwards the other operations, lifecycle and TLS events one by one. Parsing here instead of in a
// ByteToMessageHandler ahead of it saves a pipeline hop and an existential box (NIOAny) per message. Messages
// are parsed as frames that leave their payloads in the read buffer; the payloads of a batch are then copied
// into one buffer of their own (one allocation per batch instead of one or two per message) and each message is
// made once, with a slice of it. A read that ends inside a frame keeps that frame's bytes, and the next read completes
// it from its first few KiB and is parsed in place from there (not appended whole behind the partial frame).

import NIOCore

#if canImport(NIOTLS)
    import NIOTLS
#endif

final class NATSChannelHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer

    /// Messages handed to the core at once at most (bounds the batch of one large read).
    static let maxBatch = 256

    private let core: NATSConnectionCore
    private let allocator = ByteBufferAllocator()
    private let maxControlLine: Int
    /// Bytes of an incomplete frame from earlier reads.
    private var cumulation: ByteBuffer?
    /// Messages parsed from the buffer being parsed and not yet delivered; their payloads are still in it.
    private var frames: [NATSMessageFrame] = []
    /// The channel went inactive or a protocol error closed it; nothing more is parsed.
    private var closed = false

    init(core: NATSConnectionCore, maxControlLine: Int) {
        self.core = core
        self.maxControlLine = maxControlLine
        frames.reserveCapacity(Self.maxBatch)
    }

    func channelActive(context: ChannelHandlerContext) {
        core.channelActive(context.channel)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        closed = true
        cumulation = nil
        core.channelInactive(context.channel)
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !closed else { return }
        var buffer = unwrapInboundIn(data)
        do {
            if var earlier = cumulation.take() { try join(&earlier, with: &buffer, context: context) }
            try parseAll(&buffer, context: context)
        } catch {
            closed = true
            core.errorCaught(error, channel: context.channel)
            return
        }
        guard !closed, buffer.readableBytes > 0 else { return }
        // An incomplete frame waits for the next read in a buffer of its own with room for the join: the read
        // buffer may still be referenced by NIO's pool of receive buffers, where a write would copy all of it.
        if buffer.readableBytes <= Self.ownedCumulationLimit {
            var kept = allocator.buffer(capacity: buffer.readableBytes + Self.joinProbe)
            kept.writeBuffer(&buffer)
            cumulation = kept
        } else {
            if buffer.readerIndex >= 64 * 1024 { buffer.discardReadBytes() }
            cumulation = buffer
        }
    }

    /// A partial frame up to this size is copied into a buffer of its own when a read ends in it.
    static let ownedCumulationLimit = 16 * 1024
    /// Bytes of the next read appended to a partial frame at first: usually enough to complete it.
    static let joinProbe = 4 * 1024

    /// Completes the partial frame `earlier` from the front of a new read, copying only what it needs when it can.
    ///
    /// Appending the whole read behind the partial frame copied every byte of a steady stream once more. Instead
    /// the first ``joinProbe`` bytes are appended and parsed; once that completes the partial frame, the bytes of
    /// the probe left over (the start of a later frame) are still in `buffer`, which is parsed from there in
    /// place. A frame the probe does not complete (a large payload) gets the whole read appended, as before.
    private func join(_ earlier: inout ByteBuffer, with buffer: inout ByteBuffer, context: ChannelHandlerContext)
        throws(NATSProtocolError)
    {
        let probe = Swift.min(buffer.readableBytes, Self.joinProbe)
        earlier.writeImmutableBuffer(buffer.getSlice(at: buffer.readerIndex, length: probe)!)
        let joined = earlier.readableBytes
        try parseAll(&earlier, context: context)
        if earlier.readableBytes < joined {
            // The partial frame (the first) was parsed; what is left of `earlier` is the probe's last bytes.
            buffer.moveReaderIndex(forwardBy: probe - earlier.readableBytes)
        } else {
            buffer.moveReaderIndex(forwardBy: probe)
            earlier.writeBuffer(&buffer)
            buffer = earlier
        }
    }

    /// Parses every complete operation at the front of `buffer`: messages into the batch, anything else to the
    /// core after the messages before it. The batch is delivered before this returns or throws: its payloads are
    /// still in `buffer`.
    private func parseAll(_ buffer: inout ByteBuffer, context: ChannelHandlerContext) throws(NATSProtocolError) {
        defer { deliverFrames(from: buffer) }
        // An operation handed to the core may close the channel at once (a fatal -ERR): `closed` is then set by
        // channelInactive, re-entrantly, and the rest of the bytes is dropped.
        while !closed {
            // MSG and HMSG frames (nearly every frame) come back as frames; the rest as an operation.
            if let frame = try NATSProtocolDecoder.parseMessageFrame(
                &buffer, maxControlLine: maxControlLine)
            {
                frames.append(frame)
                if frames.count >= Self.maxBatch { deliverFrames(from: buffer) }
                continue
            }
            guard let operation = try NATSProtocolDecoder.parse(&buffer, maxControlLine: maxControlLine) else {
                return
            }
            // Keep the order: the messages before this operation first.
            deliverFrames(from: buffer)
            core.received(operation, channel: context.channel)
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        core.readComplete()
        context.fireChannelReadComplete()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        core.writabilityChanged(channel: context.channel)
        context.fireChannelWritabilityChanged()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        #if canImport(NIOTLS)
            if case .handshakeCompleted = event as? TLSUserEvent {
                core.tlsEstablished(channel: context.channel)
            }
        #endif
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        core.errorCaught(error, channel: context.channel)
    }

    /// Hands the parsed messages to the core, their payloads copied out of `buffer` (the one they were parsed from)
    /// first.
    ///
    /// All payloads of the batch are copied into one new buffer (one allocation instead of one or two per
    /// message) and each message gets a slice of it: a message kept by the application keeps at most its batch's
    /// payloads alive, never the socket's read buffer (which NIO could then not reuse).
    private func deliverFrames(from buffer: ByteBuffer) {
        guard let first = frames.first?.payloadIndex else { return }
        var total = 0
        for frame in frames { total += frame.payloadLength }
        var payloads = allocator.buffer(capacity: total)
        // The frames were consumed: read them through a view that starts at the first payload again.
        var region = buffer
        region.moveReaderIndex(to: first)
        region.withUnsafeReadableBytes { bytes in
            for frame in frames {
                let start = frame.payloadIndex - first
                payloads.writeBytes(UnsafeRawBufferPointer(rebasing: bytes[start..<(start + frame.payloadLength)]))
            }
        }
        core.deliver(frames, payloads: payloads)
        frames.removeAll(keepingCapacity: true)
    }
}
