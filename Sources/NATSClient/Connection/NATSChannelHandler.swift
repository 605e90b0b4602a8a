// The channel handler: it reads the server's bytes itself (cumulating partial frames and parsing them with
// NATSProtocolDecoder.parse in place), hands the messages of one read to the connection core together, and
// forwards the other operations, lifecycle and TLS events one by one. Parsing here instead of in a
// ByteToMessageHandler ahead of it saves a pipeline hop and an existential box (NIOAny) per message. Payloads
// are parsed as slices and copied, per read, into one buffer of their own (one allocation per read instead of
// one or two per message).

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
    /// Messages parsed in this read and not yet delivered.
    private var batch: [(sid: UInt64, message: NATSMessage)] = []
    /// The channel went inactive or a protocol error closed it; nothing more is parsed.
    private var closed = false

    init(core: NATSConnectionCore, maxControlLine: Int) {
        self.core = core
        self.maxControlLine = maxControlLine
        batch.reserveCapacity(Self.maxBatch)
    }

    func channelActive(context: ChannelHandlerContext) {
        core.channelActive(context.channel)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        closed = true
        deliverBatch()
        cumulation = nil
        core.channelInactive(context.channel)
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !closed else { return }
        var buffer = unwrapInboundIn(data)
        if var earlier = cumulation.take() {
            earlier.writeBuffer(&buffer)
            buffer = earlier
        }
        do {
            // An operation handed to the core may close the channel at once (a fatal -ERR): `closed` is
            // then set by channelInactive, re-entrantly, and the rest of the bytes is dropped.
            while !closed,
                let operation = try NATSProtocolDecoder.parse(
                    &buffer, maxControlLine: maxControlLine, zeroCopyPayloads: true)
            {
                if case .message(let sid, let message) = operation {
                    batch.append((sid, message))
                    if batch.count >= Self.maxBatch { deliverBatch() }
                } else {
                    // Keep the order: the messages before this operation first.
                    deliverBatch()
                    core.received(operation, channel: context.channel)
                }
            }
        } catch {
            closed = true
            deliverBatch()
            core.errorCaught(error, channel: context.channel)
            return
        }
        // The batch's payloads are slices of this read's buffer: they move to a buffer of their own now, before
        // the buffer is kept as the cumulation (and written to), and before the next read.
        deliverBatch()
        guard !closed, buffer.readableBytes > 0 else { return }
        // An incomplete frame waits for the next read; its bytes move to the front once enough was consumed.
        if buffer.readerIndex >= 64 * 1024 { buffer.discardReadBytes() }
        cumulation = buffer
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        deliverBatch()
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

    /// Hands the parsed messages to the core, their payloads copied out of the read buffer first.
    ///
    /// All payloads of the batch are copied into one new buffer (one allocation instead of one or two per
    /// message) and each message keeps a slice of it: a message kept by the application keeps at most its
    /// batch's payloads alive, never the socket's read buffer (which NIO could then not reuse).
    private func deliverBatch() {
        guard !batch.isEmpty else { return }
        var total = 0
        for (_, message) in batch { total += message.payload.readableBytes }
        var payloads = allocator.buffer(capacity: total)
        for index in batch.indices { payloads.writeImmutableBuffer(batch[index].message.payload) }
        var offset = payloads.readerIndex
        for index in batch.indices {
            let length = batch[index].message.payload.readableBytes
            batch[index].message.payload = payloads.getSlice(at: offset, length: length)!
            offset += length
        }
        core.deliver(batch)
        batch.removeAll(keepingCapacity: true)
    }
}
