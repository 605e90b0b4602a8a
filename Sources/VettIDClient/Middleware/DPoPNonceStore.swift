// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation

/// The newest `DPoP-Nonce` each server handed out, keyed by origin (`scheme://host:port`).
///
/// RFC 9449 §8.2: a server may send a new nonce on any response, 2xx included; the client uses the newest one
/// in its next proof to that server. Keeping nonces per origin means an authorization server's nonce is never
/// sent to a resource server and vice versa, and a fresh process pays at most one extra round trip.
public actor DPoPNonceStore {
    private var nonces: [String: String] = [:]

    /// Creates an empty store.
    public init() {}

    /// The newest nonce for `url`'s origin, or `nil`.
    public func nonce(for url: URL) -> String? {
        guard let origin = Self.origin(of: url) else { return nil }
        return nonces[origin]
    }

    /// Remembers `nonce` for `url`'s origin (an empty value is ignored).
    public func record(_ nonce: String, for url: URL) {
        let trimmed = nonce.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, let origin = Self.origin(of: url) else { return }
        nonces[origin] = trimmed
    }

    /// Forgets every nonce.
    public func removeAll() {
        nonces.removeAll()
    }

    /// `scheme://host:port` with scheme and host lower-cased and the default port made explicit, or `nil` when
    /// the URL has no scheme or host.
    public static func origin(of url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased(), !host.isEmpty else {
            return nil
        }
        let port = url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : -1)
        return "\(scheme)://\(host):\(port)"
    }
}
