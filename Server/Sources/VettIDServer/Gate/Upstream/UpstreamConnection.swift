// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// One HTTP/1.1 connection to a Gate upstream (TLS for `https`), carrying one exchange at a time.
final class UpstreamConnection: Sendable {
    let channel: any Channel
    private let handler: NIOLoopBound<UpstreamExchangeHandler>

    private init(channel: any Channel, handler: NIOLoopBound<UpstreamExchangeHandler>) {
        self.channel = channel
        self.handler = handler
    }

    /// Opens a connection; `onClose` runs on the connection's event loop when it closes.
    static func connect(
        to endpoint: UpstreamEndpoint, tls: NIOSSLContext?, settings: UpstreamPool.Settings,
        group: any EventLoopGroup, onClose: @escaping @Sendable (UpstreamConnection) -> Void
    ) async throws -> UpstreamConnection {
        let readTimeout = settings.readTimeout
        let bootstrap = ClientBootstrap(group: group)
            .connectTimeout(settings.connectTimeout)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let tls {
                        try channel.pipeline.syncOperations.addHandler(
                            try NIOSSLClientHandler(context: tls, serverHostname: endpoint.tlsServerName))
                    }
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(UpstreamExchangeHandler(readTimeout: readTimeout))
                }
            }
        let channel: any Channel
        do {
            channel = try await bootstrap.connect(host: endpoint.host, port: endpoint.port).get()
        } catch let error as ChannelError where error == .connectTimeout(settings.connectTimeout) {
            throw UpstreamFailure(.connectTimeout)
        } catch {
            throw UpstreamFailure(.connectionFailed)
        }
        // A connection that already failed (a refused TLS handshake closes it right after connecting) has lost
        // its handlers: that is a failed connection, not a pipeline error.
        do {
            return try await channel.eventLoop.submit {
                guard channel.isActive else { throw UpstreamFailure(.connectionFailed) }
                let handler = try channel.pipeline.syncOperations.handler(type: UpstreamExchangeHandler.self)
                let connection = UpstreamConnection(
                    channel: channel, handler: NIOLoopBound(handler, eventLoop: channel.eventLoop))
                handler.onClose = { onClose(connection) }
                return connection
            }.get()
        } catch {
            channel.close(promise: nil)
            throw UpstreamFailure(.connectionFailed)
        }
    }

    /// Writes the request head (and its end when `hasBody` is false); the future holds the response once its head
    /// arrived. `completion` says, once the exchange ended, whether the connection may be reused. Body writes made
    /// after this call queue behind the head.
    func start(
        _ head: HTTPRequestHead, hasBody: Bool, completion: @escaping UpstreamExchangeHandler.Completion
    ) -> EventLoopFuture<UpstreamResponse> {
        let promise = channel.eventLoop.makePromise(of: UpstreamResponse.self)
        let (channel, handler) = (channel, handler)
        let start: @Sendable () -> Void = {
            handler.value.begin(promise, completion: completion)
            channel.write(HTTPClientRequestPart.head(head), promise: nil)
            if !hasBody { channel.write(HTTPClientRequestPart.end(nil), promise: nil) }
            channel.flush()
        }
        if channel.eventLoop.inEventLoop { start() } else { channel.eventLoop.execute(start) }
        return promise.futureResult
    }

    /// Writes one chunk of the request body and waits until it was handed to the socket.
    func write(_ chunk: ByteBuffer) async throws {
        try await channel.writeAndFlush(HTTPClientRequestPart.body(.byteBuffer(chunk))).get()
    }

    /// Ends the request body.
    func end() async throws {
        try await channel.writeAndFlush(HTTPClientRequestPart.end(nil)).get()
    }

    /// Closes the connection (a failed or abandoned exchange).
    func close() {
        channel.close(promise: nil)
    }
}
