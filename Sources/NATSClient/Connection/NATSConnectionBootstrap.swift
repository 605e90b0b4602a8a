// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// Opening a connection: the TCP (or Network.framework) connect (or a test's connector) with the channel handler in
// the pipeline, and the CONNECT options the client sends once it has the server's INFO.

import NIOCore
import NIOPosix

#if canImport(Network) && canImport(NIOTransportServices)
    import NIOTransportServices
#endif

struct NATSConnectionBootstrap: Sendable {
    let configuration: NATSClient.Configuration
    /// Network.framework (NIOTransportServices) instead of POSIX sockets; only ever true on Apple platforms.
    let usesTransportServices: Bool

    /// Connects to `server` on `eventLoop`; the channel's handler reports to `core`. A configured
    /// ``NATSClient/Configuration/connector`` (tests) opens the channel instead, with the same pipeline.
    func connect(
        to server: NATSServerAddress,
        on eventLoop: any EventLoop,
        core: NATSConnectionCore
    ) -> EventLoopFuture<any Channel> {
        let initializer = Self.pipelineInitializer(core: core, maxControlLine: configuration.maxControlLine)
        if let connector = configuration.connector {
            return connector.connect(server, eventLoop, initializer)
        }
        let timeout = TimeAmount(configuration.connectTimeout)
        #if canImport(Network) && canImport(NIOTransportServices)
            if usesTransportServices, let bootstrap = NIOTSConnectionBootstrap(validatingGroup: eventLoop) {
                // Network.framework: NIOTSConnectionBootstrap sets TCP_NODELAY itself.
                return
                    bootstrap
                    .connectTimeout(timeout)
                    .channelInitializer(initializer)
                    .connect(host: server.host, port: server.port)
            }
        #endif
        return ClientBootstrap(group: eventLoop)
            .connectTimeout(timeout)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer(initializer)
            .connect(host: server.host, port: server.port)
    }

    /// The pipeline of every connection, however its channel was opened: the channel handler, which parses the
    /// server's bytes and reports to `core` (TLS goes in front of it after INFO, ``NATSTLSUpgrade``).
    static func pipelineInitializer(core: NATSConnectionCore, maxControlLine: Int) -> NATSChannelConnector.Initializer {
        { channel in
            channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHandler(
                    NATSChannelHandler(core: core, maxControlLine: maxControlLine))
            }
        }
    }

    /// The CONNECT options for `server` after its INFO: the configuration's flags, credentials from the
    /// server URL (`user:password@` or a token as `token@`) and the configured authentication, which may sign
    /// the server's nonce.
    func connectOptions(info: NATSServerInfo, server: NATSServerAddress?) throws(NATSError) -> NATSConnectOptions {
        var options = NATSConnectOptions()
        options.verbose = configuration.verbose
        options.pedantic = configuration.pedantic
        options.name = configuration.name
        options.echo = configuration.echo
        options.headers = info.headers
        options.noResponders = info.headers
        options.tlsRequired = configuration.requireTLS
        if let user = server?.user {
            if let password = server?.password {
                options.user = user
                options.pass = password
            } else {
                options.authToken = user
            }
        }
        try configuration.auth.apply(to: &options, nonce: info.nonce)
        return options
    }
}
