// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// The list of servers to try, with discovered servers merged in from INFO `connect_urls` (with a scheme,
// pruned when the cluster stops announcing them), as nats.go does.

/// Servers to connect to, in order, with per-server reconnect attempt counts.
struct NATSServerPool: Sendable {
    struct Entry: Sendable {
        var address: NATSServerAddress
        var reconnectAttempts: Int = 0
        var didConnect: Bool = false
    }

    private(set) var entries: [Entry]
    private var currentIndex: Int?

    init(_ addresses: [NATSServerAddress]) {
        var unique: [NATSServerAddress] = []
        for address in addresses where !unique.contains(address) { unique.append(address) }
        entries = unique.map { Entry(address: $0) }
    }

    var current: NATSServerAddress? { currentIndex.map { entries[$0].address } }
    var addresses: [NATSServerAddress] { entries.map(\.address) }

    /// Moves the current server to the end and returns the next one with attempts left, or `nil`.
    mutating func next(maxAttemptsPerServer: Int?) -> NATSServerAddress? {
        if let index = currentIndex {
            let entry = entries.remove(at: index)
            if let maxAttemptsPerServer, entry.reconnectAttempts >= maxAttemptsPerServer {
                // Dropped: it used up its attempts.
            } else {
                entries.append(entry)
            }
            currentIndex = nil
        }
        guard !entries.isEmpty else { return nil }
        currentIndex = 0
        return entries[0].address
    }

    /// Records an attempt on the current server.
    mutating func recordAttempt() {
        guard let index = currentIndex else { return }
        entries[index].reconnectAttempts += 1
    }

    /// Records a successful connection to the current server.
    mutating func recordConnected() {
        guard let index = currentIndex else { return }
        entries[index].reconnectAttempts = 0
        entries[index].didConnect = true
    }

    /// Merges `connect_urls` from INFO: adds unknown servers (with the current scheme) and removes
    /// discovered servers no longer announced. Returns the addresses that were added.
    mutating func merge(connectURLs: [String], scheme: String) -> [NATSServerAddress] {
        let announced = connectURLs.compactMap { url -> NATSServerAddress? in
            let withScheme = url.contains("://") ? url : "\(scheme)://\(url)"
            return NATSServerAddress(withScheme, isDiscovered: true)
        }
        let current = self.current
        entries.removeAll { entry in
            entry.address.isDiscovered && !announced.contains(entry.address) && entry.address != current
        }
        if let current { currentIndex = entries.firstIndex { $0.address == current } }
        var added: [NATSServerAddress] = []
        for address in announced where !entries.contains(where: { $0.address == address }) {
            entries.append(Entry(address: address))
            added.append(address)
        }
        return added
    }
}
