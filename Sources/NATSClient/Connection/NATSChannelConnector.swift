// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// A source of connection channels other than the network: the core's tests hand it in-memory channels
// (NIOAsyncTestingChannel) through one of these, so the connection core runs with its real pipeline and no socket.

import NIOCore

/// Opens a connection's channel in place of ``NATSConnectionBootstrap``'s TCP (or Network.framework) connect.
///
/// Set only by tests (``NATSClient/Configuration/connector``); a client without one connects over the network.
struct NATSChannelConnector: Sendable {
    /// Installs the client's handlers on a new channel; the connector runs it before the channel becomes active.
    typealias Initializer = @Sendable (any Channel) -> EventLoopFuture<Void>

    /// Opens a channel to the server on the event loop, with the initializer run on it, and makes it active.
    let connect:
        @Sendable (_ server: NATSServerAddress, _ eventLoop: any EventLoop, _ initializer: @escaping Initializer) ->
            EventLoopFuture<any Channel>
}
