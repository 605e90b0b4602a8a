// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Hummingbird
import Logging
import NIOCore

/// The request context of the VettID server: Hummingbird's core storage plus the peer address.
public struct AppRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The TCP peer's IP address, if the channel has one.
    public let peerAddress: String?

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.peerAddress = source.channel.remoteAddress?.ipAddress
    }

    /// Bodies are limited by ``RequestBodyMiddleware``; this bound only applies to Hummingbird's own decoding.
    public var maxUploadSize: Int { 1 << 20 }
}
