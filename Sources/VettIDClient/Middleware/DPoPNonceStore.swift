// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation

/// The newest `DPoP-Nonce` each server handed out, keyed by origin (`scheme://host:port`).
///
/// RFC 9449 §8.2 and §9: a server may send a new nonce on any response, 2xx included, and the client uses the
/// newest one in its next proof to that server. One store holds the nonces of authorization-server and
/// resource-server endpoints alike: a VettID server issues one nonce for all its endpoints (docs/protocol.md §1),
/// so the nonce a `GET /auth/me` returned is the one the next `POST /token` or `POST /vault/enroll/start` needs.
/// Nonces of different origins never mix. Share one store between the ``AuthManager``, ``VaultService`` and
/// ``GateClient`` that talk to the same server, so each of them starts with the nonce the others last saw.
///
/// A store made with ``init(persistingIn:storageKey:)`` also keeps the nonces in a ``SecureStore``, so a new
/// process (a CLI invocation, an app relaunch) starts with the newest nonce instead of a refused request. It is
/// read on first use and written only when a nonce changes (a VettID server changes it every five minutes).
public actor DPoPNonceStore {
    private var nonces: [String: String] = [:]
    private let persistence: (store: any SecureStore, key: String)?
    private var loaded: Bool

    /// Creates an empty store that lives as long as the process.
    public init() {
        persistence = nil
        loaded = true
    }

    /// Creates a store whose nonces persist in `store` under `storageKey` (a JSON object origin → nonce).
    ///
    /// Reading or writing the store never fails a request: an unreadable value starts empty, a failed write keeps
    /// the nonce in memory.
    public init(persistingIn store: any SecureStore, storageKey: String) {
        persistence = (store, storageKey)
        loaded = false
    }

    /// The newest nonce for `url`'s origin, or `nil`.
    public func nonce(for url: URL) async -> String? {
        guard let origin = Self.origin(of: url) else { return nil }
        await loadIfNeeded()
        return nonces[origin]
    }

    /// Remembers `nonce` for `url`'s origin (an empty value is ignored).
    public func record(_ nonce: String, for url: URL) async {
        let trimmed = nonce.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, let origin = Self.origin(of: url) else { return }
        await loadIfNeeded()
        guard nonces[origin] != trimmed else { return }
        nonces[origin] = trimmed
        await save()
    }

    /// Forgets every nonce (the persisted ones too).
    public func removeAll() async {
        nonces.removeAll()
        loaded = true
        if let persistence { try? await persistence.store.removeValue(forKey: persistence.key) }
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

    private func loadIfNeeded() async {
        guard !loaded, let persistence else { return }
        loaded = true
        guard let data = try? await persistence.store.data(forKey: persistence.key),
            let stored = try? JSONDecoder().decode([String: String].self, from: data)
        else { return }
        // A nonce recorded while the stored ones were being read is newer: keep it.
        nonces.merge(stored) { current, _ in current }
    }

    private func save() async {
        guard let persistence, let data = try? JSONEncoder().encode(nonces) else { return }
        try? await persistence.store.set(data, forKey: persistence.key)
    }
}
