// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// Where a Gate upstream is: scheme, host, port and base path, parsed once from its configured base URL.
struct UpstreamEndpoint: Sendable, Equatable {
    /// Whether connections use TLS (`https`).
    let tls: Bool
    /// The host name or IP address (without brackets for IPv6).
    let host: String
    /// The TCP port (the scheme's default when the URL names none).
    let port: Int
    /// The path prefix every forwarded path is appended to (empty or starting with `/`, no trailing slash).
    let basePath: String

    /// The name sent in TLS SNI and checked against the certificate; `nil` for an IP address (checked against the
    /// certificate's IP entries instead).
    var tlsServerName: String? {
        host.contains(":") || host.allSatisfy({ $0.isNumber || $0 == "." }) ? nil : host
    }

    /// The `Host` header value: the host, and the port when it is not the scheme's default.
    var hostHeader: String {
        let name = host.contains(":") ? "[\(host)]" : host
        return port == (tls ? 443 : 80) ? name : "\(name):\(port)"
    }

    /// Parses `http(s)://host[:port][/base]`; `nil` for another scheme, an empty host, a bad port, or a URL with
    /// user info, a query or a fragment.
    init?(baseURL: String) {
        let lowered = baseURL.lowercased()
        let rest: Substring
        if lowered.hasPrefix("http://") {
            tls = false
            rest = baseURL.dropFirst("http://".count)
        } else if lowered.hasPrefix("https://") {
            tls = true
            rest = baseURL.dropFirst("https://".count)
        } else {
            return nil
        }
        guard !rest.contains(where: { $0 == "?" || $0 == "#" || $0 == "@" }) else { return nil }
        let authorityEnd = rest.firstIndex(of: "/") ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        var path = String(rest[authorityEnd...])
        while path.hasSuffix("/") { path.removeLast() }
        basePath = path

        var hostPart = authority
        var portPart: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            hostPart = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return nil }
                portPart = after.dropFirst()
            }
        } else if let colon = authority.lastIndex(of: ":") {
            hostPart = authority[..<colon]
            portPart = authority[authority.index(after: colon)...]
        }
        guard !hostPart.isEmpty else { return nil }
        host = String(hostPart)
        if let portPart {
            guard let number = Int(portPart), (1...65_535).contains(number) else { return nil }
            port = number
        } else {
            port = tls ? 443 : 80
        }
    }
}
