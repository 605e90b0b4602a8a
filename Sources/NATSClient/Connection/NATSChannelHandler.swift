// The thin channel handler: forwards decoded operations, lifecycle and TLS events to the connection core,
// which runs the state machine and carries out its actions.

import NIOCore

#if canImport(NIOTLS)
    import NIOTLS
#endif

final class NATSChannelHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NATSServerOperation

    private let core: NATSConnectionCore

    init(core: NATSConnectionCore) {
        self.core = core
    }

    func channelActive(context: ChannelHandlerContext) {
        core.channelActive(context.channel)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        core.channelInactive(context.channel)
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        core.received(unwrapInboundIn(data), channel: context.channel)
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
}
