// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// Why a request to a Gate upstream failed; the proxy answers 504 for the timeouts and 502 for the rest.
struct UpstreamFailure: Error, Equatable, CustomStringConvertible {
    /// What went wrong.
    enum Kind: String, Sendable {
        /// No connection within the connect timeout.
        case connectTimeout
        /// No response head, or no body bytes, within the read timeout.
        case readTimeout
        /// The connection could not be opened (refused, unreachable, TLS handshake failed, bad base URL).
        case connectionFailed
        /// The connection closed or failed before the response was complete.
        case connectionClosed
        /// The upstream's answer was not valid HTTP/1.1.
        case invalidResponse
    }

    let kind: Kind

    init(_ kind: Kind) { self.kind = kind }

    /// Whether the proxy reports it as a timeout (504).
    var isTimeout: Bool { kind == .connectTimeout || kind == .readTimeout }

    var description: String { "UpstreamFailure(\(kind.rawValue))" }
}
