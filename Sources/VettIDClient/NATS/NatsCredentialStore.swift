// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation
import VettIDCore

/// Keeps the current ``NatsCredentials`` in a ``SecureStore`` under ``storageKey`` (`<prefix>.nats.credentials`).
///
/// An unreadable item counts as none (the manager then asks for new credentials).
public actor NatsCredentialStore {
    /// The store key: `<prefix>.nats.credentials`.
    public nonisolated let storageKey: String
    private let store: any SecureStore
    private var cached: NatsCredentials?
    private var loaded = false

    /// Creates a credential store.
    /// - Parameters:
    ///   - store: Where the item lives (the Keychain on Apple platforms).
    ///   - keyPrefix: The prefix of the key (default `vettid`, giving `vettid.nats.credentials`).
    public init(store: any SecureStore, keyPrefix: String = "vettid") {
        self.store = store
        self.storageKey = "\(keyPrefix).nats.credentials"
    }

    /// The stored credentials (read once per process), expired or not; `nil` when there are none.
    public func load() async -> NatsCredentials? {
        if !loaded {
            loaded = true
            if let data = try? await store.data(forKey: storageKey) {
                cached = try? JSONDecoder().decode(NatsCredentials.self, from: data)
            }
        }
        return cached
    }

    /// Replaces the stored credentials (in memory at once, then in the store).
    /// - Throws: ``APIError`` `storage_failed` when the store refuses the write (they stay usable in memory).
    public func save(_ credentials: NatsCredentials) async throws(APIError) {
        cached = credentials
        loaded = true
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            try await store.set(try encoder.encode(credentials), forKey: storageKey)
        } catch {
            throw APIError(
                code: .storageFailed, description: "The NATS credentials could not be stored.", underlying: error)
        }
    }

    /// Forgets the credentials (memory and store); store errors are ignored.
    public func remove() async {
        cached = nil
        loaded = true
        try? await store.removeValue(forKey: storageKey)
    }
}
