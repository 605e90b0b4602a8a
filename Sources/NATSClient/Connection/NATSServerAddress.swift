// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// Server URLs: `nats://[user[:pass]@]host[:port]`, `tls://…`, or bare `host[:port]`; default port 4222.

/// One server the client can connect to.
public struct NATSServerAddress: Sendable, Hashable, CustomStringConvertible {
    /// `nats` or `tls`.
    public var scheme: String
    /// Host name or IP address (IPv6 without brackets).
    public var host: String
    /// TCP port.
    public var port: Int
    /// User from the URL, if any.
    public var user: String?
    /// Password from the URL, if any. Secret: not part of ``description``.
    public var password: String?
    /// Whether this server was learned from INFO `connect_urls` rather than configured.
    public var isDiscovered: Bool

    /// The default client port.
    public static let defaultPort = 4222

    /// Parses a server URL. Returns `nil` for an empty host, a bad port or an unknown scheme.
    public init?(_ text: String, isDiscovered: Bool = false) {
        var rest = Substring(text.trimmingSpaces())
        var scheme = "nats"
        if let colon = rest.firstIndex(of: ":"), rest[colon...].hasPrefix("://") {
            scheme = rest[..<colon].lowercased()
            rest = rest[rest.index(colon, offsetBy: 3)...]
        }
        guard ["nats", "tls"].contains(scheme) else { return nil }
        if let slash = rest.firstIndex(of: "/") { rest = rest[..<slash] }
        var user: String?
        var password: String?
        if let at = rest.lastIndex(of: "@") {
            let credentials = rest[..<at]
            rest = rest[rest.index(after: at)...]
            if let colon = credentials.firstIndex(of: ":") {
                user = String(credentials[..<colon])
                password = String(credentials[credentials.index(after: colon)...])
            } else {
                user = String(credentials)
            }
        }
        var host: Substring
        var portText: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { return nil }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if after.hasPrefix(":") { portText = after.dropFirst() } else if !after.isEmpty { return nil }
        } else if let colon = rest.lastIndex(of: ":") {
            host = rest[..<colon]
            portText = rest[rest.index(after: colon)...]
        } else {
            host = rest
        }
        guard !host.isEmpty else { return nil }
        var port = Self.defaultPort
        if let portText {
            guard let parsed = Int(portText), (1...65535).contains(parsed) else { return nil }
            port = parsed
        }
        self.scheme = scheme
        self.host = String(host)
        self.port = port
        self.user = user
        self.password = password
        self.isDiscovered = isDiscovered
    }

    /// `scheme://host:port` (no credentials).
    public var description: String {
        host.contains(":") ? "\(scheme)://[\(host)]:\(port)" : "\(scheme)://\(host):\(port)"
    }

    /// Same server regardless of scheme, credentials or origin.
    func isSameEndpoint(as other: NATSServerAddress) -> Bool {
        host == other.host && port == other.port
    }

    /// Equality of host and port only.
    public static func == (lhs: NATSServerAddress, rhs: NATSServerAddress) -> Bool {
        lhs.isSameEndpoint(as: rhs)
    }

    /// Hashes host and port only.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(host)
        hasher.combine(port)
    }
}

extension String {
    fileprivate func trimmingSpaces() -> String {
        var text = Substring(self)
        while let first = text.first, first.isWhitespace { text = text.dropFirst() }
        while let last = text.last, last.isWhitespace { text = text.dropLast() }
        return String(text)
    }
}
