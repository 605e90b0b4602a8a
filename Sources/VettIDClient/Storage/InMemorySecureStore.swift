// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation

/// A ``SecureStore`` kept in memory only: for tests and sessions that must not outlive the process.
public actor InMemorySecureStore: SecureStore {
    private var items: [String: Data]

    /// Creates a store, optionally with initial items.
    public init(items: [String: Data] = [:]) {
        self.items = items
    }

    /// The value for `key`.
    public func data(forKey key: String) async throws -> Data? {
        items[key]
    }

    /// Applies all changes at once.
    public func setValues(_ values: [String: Data?]) async throws {
        for (key, value) in values {
            items[key] = value
        }
    }

    /// All keys currently stored.
    public var keys: [String] { Array(items.keys).sorted() }
}
