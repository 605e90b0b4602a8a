// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// Something that happened to the connection, delivered on ``NATSClient/events``.
public enum NATSEvent: Sendable, Equatable {
    /// The first connection to a server succeeded.
    case connected(server: String)
    /// The connection was lost (with the reason, if known).
    case disconnected(NATSError?)
    /// A new connection was established after a loss; subscriptions were re-sent.
    case reconnected(server: String)
    /// The client closed (with the error that closed it, if any).
    case closed(NATSError?)
    /// The server announced lame duck mode: it will shut down soon.
    case lameDuckMode
    /// INFO announced servers the client did not know.
    case discoveredServers([String])
    /// A non-fatal error: permissions violation, slow consumer, …
    case error(NATSError)
}

/// Counters of the client's traffic.
public struct NATSStatistics: Sendable, Equatable {
    /// Messages received.
    public var inMessages: UInt64 = 0
    /// Payload bytes received.
    public var inBytes: UInt64 = 0
    /// Messages published.
    public var outMessages: UInt64 = 0
    /// Payload bytes published.
    public var outBytes: UInt64 = 0
    /// Successful reconnects.
    public var reconnects: UInt64 = 0

    /// Creates zeroed statistics.
    public init() {}
}
