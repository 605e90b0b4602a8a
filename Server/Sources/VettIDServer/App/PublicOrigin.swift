// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import NIOConcurrencyHelpers

/// The origin clients use to reach this server: `public_url` when configured, otherwise `http://host:port` as
/// bound (the port is only known once the server listens when configured as 0).
public final class PublicOrigin: Sendable {
    private let value: NIOLockedValueBox<String>
    private let configured: Bool

    init(configuration: ServerConfiguration) {
        configured = configuration.publicURL != nil
        value = NIOLockedValueBox(configuration.publicURL ?? "http://\(configuration.host):\(configuration.port)")
    }

    /// The origin, e.g. `https://api.example.com` (no trailing slash).
    public var url: String { value.withLockedValue { $0 } }

    /// Records the bound address unless an explicit public URL was configured.
    func bound(host: String, port: Int) {
        guard !configured else { return }
        let shownHost = host.contains(":") ? "[\(host)]" : host
        value.withLockedValue { $0 = "http://\(shownHost):\(port)" }
    }
}
