// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import NIOSSL

/// A TCP server on loopback that answers each request (a head ending in a blank line; no bodies) as its script
/// says, to drive the Gate's upstream client through what real servers do: keep connections alive, close them
/// between requests, stall, or answer with garbage.
final class ScriptedUpstream: Sendable {
    /// What to do with the `index`-th request (from 0) on a connection.
    typealias Script = @Sendable (_ index: Int) -> Action

    enum Action: Sendable {
        /// Write these bytes.
        case answer(String)
        /// Close the connection without answering.
        case close
        /// Never answer.
        case stall
    }

    let port: Int
    private let channel: any Channel
    private let counters: NIOLockedValueBox<(connections: Int, requests: Int)>

    /// Connections accepted so far.
    var connections: Int { counters.withLockedValue { $0.connections } }
    /// Requests received so far.
    var requests: Int { counters.withLockedValue { $0.requests } }

    /// Starts listening; with `tls`, connections are TLS with that server context.
    init(tls: NIOSSLContext? = nil, script: @escaping Script) async throws {
        let counters = NIOLockedValueBox((connections: 0, requests: 0))
        self.counters = counters
        channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { child in
                counters.withLockedValue { $0.connections += 1 }
                return child.eventLoop.makeCompletedFuture {
                    if let tls { try child.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: tls)) }
                    try child.pipeline.syncOperations.addHandler(Handler(script: script, counters: counters))
                }
            }
            .bind(host: "127.0.0.1", port: 0).get()
        port = channel.localAddress?.port ?? 0
    }

    func stop() async {
        try? await channel.close()
    }

    /// An HTTP/1.1 answer with a body and `Content-Length`.
    static func ok(_ body: String, extraHeaders: String = "") -> Action {
        .answer("HTTP/1.1 200 OK\r\nContent-Length: \(body.utf8.count)\r\n\(extraHeaders)\r\n\(body)")
    }

    private final class Handler: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        let script: Script
        let counters: NIOLockedValueBox<(connections: Int, requests: Int)>
        var pending = ""
        var index = 0

        init(script: @escaping Script, counters: NIOLockedValueBox<(connections: Int, requests: Int)>) {
            self.script = script
            self.counters = counters
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            pending += String(buffer: unwrapInboundIn(data))
            while let end = pending.range(of: "\r\n\r\n") {
                pending.removeSubrange(..<end.upperBound)
                counters.withLockedValue { $0.requests += 1 }
                defer { index += 1 }
                switch script(index) {
                case .answer(let text):
                    context.writeAndFlush(NIOAny(ByteBuffer(string: text)), promise: nil)
                case .close:
                    context.close(promise: nil)
                    return
                case .stall:
                    break
                }
            }
        }
    }
}
