// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// Normalization of DPoP `htu` values and request URIs (RFC 9449 §4.3, RFC 3986 §6.2.2 and §6.2.3).

/// Normalizes an HTTP target URI for the `htu` comparison.
///
/// The result is `scheme://host[:port]/path` with:
/// - scheme and host lower-cased;
/// - the port dropped when empty or the scheme's default (`http`/`ws` 80, `https`/`wss` 443), and
///   written without leading zeros otherwise;
/// - percent-encodings of unreserved characters (`A-Z a-z 0-9 - . _ ~`) decoded and the remaining ones
///   written with upper-case hex digits;
/// - dot segments removed (RFC 3986 §5.2.4) and an empty path written as `/`;
/// - query and fragment dropped.
///
/// Path case is kept (it is significant). A URI without `//authority`, with user information, with an
/// empty host, a bad port, a malformed percent-encoding, or a byte outside printable ASCII is refused.
public enum DPoPTargetURI {
    private static let defaultPorts: [String: Int] = ["http": 80, "https": 443, "ws": 80, "wss": 443]

    /// The URI without query and fragment, unchanged otherwise (what a client puts in `htu`).
    public static func stripQueryAndFragment(_ uri: String) -> String {
        if let end = uri.utf8.firstIndex(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) {
            return String(uri[..<end])
        }
        return uri
    }

    /// The normalized form of `uri`, or `nil` when it is not an acceptable absolute HTTP(S)-style URI.
    public static func normalize(_ uri: String) -> String? {
        if isAlreadyNormalized(uri) { return uri }
        return normalizeFully(uri)
    }

    /// ``normalize(_:)`` without the shortcut for URIs already in normal form (the tests compare the two).
    package static func normalizeFully(_ uri: String) -> String? {
        let bytes = Array(uri.utf8)
        guard !bytes.isEmpty, bytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return nil }
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0 else { return nil }
        let scheme = String(decoding: bytes[..<colon], as: UTF8.self).lowercased()
        guard let first = scheme.utf8.first, isAlpha(first),
            scheme.utf8.allSatisfy({
                isAlpha($0) || isDigit($0) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-")
                    || $0 == UInt8(ascii: ".")
            })
        else { return nil }
        var rest = Array(bytes[(colon + 1)...])
        guard rest.starts(with: Array("//".utf8)) else { return nil }
        rest.removeFirst(2)
        // Drop query and fragment.
        if let end = rest.firstIndex(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) {
            rest = Array(rest[..<end])
        }
        let authorityEnd = rest.firstIndex(of: UInt8(ascii: "/")) ?? rest.count
        let authority = Array(rest[..<authorityEnd])
        let path = Array(rest[authorityEnd...])
        guard !authority.contains(UInt8(ascii: "@")) else { return nil }

        var hostBytes: [UInt8]
        var portBytes: [UInt8]? = nil
        if authority.first == UInt8(ascii: "[") {
            guard let close = authority.firstIndex(of: UInt8(ascii: "]")) else { return nil }
            hostBytes = Array(authority[...close])
            let after = authority[(close + 1)...]
            if !after.isEmpty {
                guard after.first == UInt8(ascii: ":") else { return nil }
                portBytes = Array(after.dropFirst())
            }
        } else if let portColon = authority.lastIndex(of: UInt8(ascii: ":")) {
            hostBytes = Array(authority[..<portColon])
            portBytes = Array(authority[(portColon + 1)...])
        } else {
            hostBytes = authority
        }
        // An unbracketed host cannot hold a colon (only IP literals in brackets do).
        guard !hostBytes.isEmpty, hostBytes.first == UInt8(ascii: "[") || !hostBytes.contains(UInt8(ascii: ":")) else {
            return nil
        }
        // Decode first, then lower-case, so `%41` and `A` and `a` give the same host (normalizing twice changes
        // nothing); the hex digits of the encodings that remain stay upper-case.
        guard let decodedHost = normalizePercentEncoding(hostBytes) else { return nil }
        var hostOut: [UInt8] = []
        var hexLeft = 0
        for byte in decodedHost.utf8 {
            if hexLeft > 0 {
                hexLeft -= 1
                hostOut.append(byte)
            } else if byte == UInt8(ascii: "%") {
                hexLeft = 2
                hostOut.append(byte)
            } else {
                hostOut.append(byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte)
            }
        }
        let host = String(decoding: hostOut, as: UTF8.self)

        var portSuffix = ""
        if let portBytes, !portBytes.isEmpty {
            guard portBytes.count <= 5, portBytes.allSatisfy(isDigit),
                let port = Int(String(decoding: portBytes, as: UTF8.self)), port <= 65535
            else { return nil }
            if defaultPorts[scheme] != port { portSuffix = ":\(port)" }
        }

        guard let encodedPath = normalizePercentEncoding(path) else { return nil }
        var normalizedPath = removeDotSegments(encodedPath)
        if normalizedPath.isEmpty { normalizedPath = "/" }
        return scheme + "://" + host + portSuffix + normalizedPath
    }

    /// Whether ``normalize(_:)`` would return `uri` unchanged, decided in one pass without allocating: a lower-case
    /// scheme and host, `//`, no user info, IP literal, percent-encoding, query, fragment, dot segment, empty or
    /// default port, and a path. Clients send URIs in this form, so the usual case skips the general algorithm
    /// (the tests compare both on generated URIs).
    package static func isAlreadyNormalized(_ uri: String) -> Bool {
        enum Phase { case scheme, slash1, slash2, host, port, path }
        var phase = Phase.scheme
        var schemeLength = 0
        var hostLength = 0
        var port = 0
        var portDigits = 0
        var segmentLength = 0
        var segmentDots = 0
        for byte in uri.utf8 {
            guard byte > 0x20, byte < 0x7F else { return false }
            switch phase {
            case .scheme:
                if byte == UInt8(ascii: ":") {
                    guard schemeLength > 0 else { return false }
                    phase = .slash1
                } else {
                    let lower = byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")
                    let other =
                        (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "+")
                        || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
                    guard lower || (schemeLength > 0 && other) else { return false }
                    schemeLength += 1
                }
            case .slash1, .slash2:
                guard byte == UInt8(ascii: "/") else { return false }
                phase = phase == .slash1 ? .slash2 : .host
            case .host:
                switch byte {
                case UInt8(ascii: "/"):
                    guard hostLength > 0 else { return false }
                    phase = .path
                case UInt8(ascii: ":"):
                    guard hostLength > 0 else { return false }
                    phase = .port
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "%"), UInt8(ascii: "@"), UInt8(ascii: "["),
                    UInt8(ascii: "]"), UInt8(ascii: "?"), UInt8(ascii: "#"):
                    return false
                default:
                    hostLength += 1
                }
            case .port:
                if byte == UInt8(ascii: "/") {
                    guard portDigits > 0, port <= 65535, port != defaultPort(ofSchemeIn: uri, length: schemeLength)
                    else { return false }
                    phase = .path
                } else {
                    guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), portDigits < 5,
                        !(portDigits == 0 && byte == UInt8(ascii: "0"))
                    else { return false }
                    port = port * 10 + Int(byte - UInt8(ascii: "0"))
                    portDigits += 1
                }
            case .path:
                switch byte {
                case UInt8(ascii: "/"):
                    if segmentDots == segmentLength, segmentLength == 1 || segmentLength == 2 { return false }
                    segmentLength = 0
                    segmentDots = 0
                case UInt8(ascii: "%"), UInt8(ascii: "?"), UInt8(ascii: "#"):
                    return false
                default:
                    segmentLength += 1
                    if byte == UInt8(ascii: ".") { segmentDots += 1 }
                }
            }
        }
        guard phase == .path else { return false }
        return !(segmentDots == segmentLength && (segmentLength == 1 || segmentLength == 2))
    }

    /// The default port of the scheme in the first `length` bytes of `uri` (`defaultPorts`), or -1 when it has none.
    private static func defaultPort(ofSchemeIn uri: String, length: Int) -> Int {
        defaultPorts[String(decoding: uri.utf8.prefix(length), as: UTF8.self)] ?? -1
    }

    private static func isAlpha(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        isAlpha(byte) || isDigit(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "~")
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// Decodes `%XX` of unreserved characters and upper-cases the hex of the others (RFC 3986 §6.2.2.1-2).
    private static func normalizePercentEncoding(_ bytes: [UInt8]) -> String? {
        let upperHex = Array("0123456789ABCDEF".utf8)
        var output = [UInt8]()
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, let high = hexValue(bytes[index + 1]),
                    let low = hexValue(bytes[index + 2])
                else { return nil }
                let decoded = high << 4 | low
                if isUnreserved(decoded) {
                    output.append(decoded)
                } else {
                    output.append(contentsOf: [UInt8(ascii: "%"), upperHex[Int(high)], upperHex[Int(low)]])
                }
                index += 3
            } else {
                output.append(byte)
                index += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// RFC 3986 §5.2.4 remove_dot_segments.
    static func removeDotSegments(_ path: String) -> String {
        var input = Substring(path)
        var output: [Substring] = []
        while !input.isEmpty {
            if input.hasPrefix("../") {
                input = input.dropFirst(3)
            } else if input.hasPrefix("./") {
                input = input.dropFirst(2)
            } else if input.hasPrefix("/./") {
                input = input.dropFirst(2)
            } else if input == "/." {
                input = "/"
            } else if input.hasPrefix("/../") {
                input = input.dropFirst(3)
                if !output.isEmpty { output.removeLast() }
            } else if input == "/.." {
                input = "/"
                if !output.isEmpty { output.removeLast() }
            } else if input == "." || input == ".." {
                input = ""
            } else {
                // Move the first segment (with its leading "/", if any) to the output.
                let start = input.hasPrefix("/") ? input.index(after: input.startIndex) : input.startIndex
                let end = input[start...].firstIndex(of: "/") ?? input.endIndex
                output.append(input[..<end])
                input = input[end...]
            }
        }
        return output.joined()
    }
}
