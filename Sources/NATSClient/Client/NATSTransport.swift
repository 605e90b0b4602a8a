// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// Which networking stack carries the connection.
///
/// On Linux only POSIX sockets exist. On Apple platforms ``automatic`` uses Network.framework through
/// NIOTransportServices (`NIOTSConnectionBootstrap` on a `NIOTSEventLoopGroup`), as Apple recommends for
/// apps; ``posix`` forces BSD sockets there. TLS is the same on both: NATS upgrades to TLS in-band after
/// INFO, which Network.framework's own TLS cannot do, so NIOSSL runs inside the channel pipeline.
///
/// - Important: The Network.framework path is written against NIOTransportServices 1.28 but has not been
///   compiled or tested in this repository's CI, which runs on Linux only.
public enum NATSTransport: Sendable, Hashable {
    /// Network.framework on Apple platforms, POSIX sockets elsewhere. With a caller-supplied event loop
    /// group, the stack that group supports.
    case automatic
    /// POSIX sockets through NIOPosix `ClientBootstrap` (every platform).
    case posix
    /// Network.framework through NIOTransportServices (Apple platforms only; `invalidConfiguration`
    /// elsewhere).
    case transportServices
}
