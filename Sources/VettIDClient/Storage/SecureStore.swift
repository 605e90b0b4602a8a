// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import Foundation

/// Secret storage for tokens, keys and credential packages.
///
/// Implementations: `KeychainSecureStore` (Apple platforms), ``EncryptedFileSecureStore`` (any platform;
/// the default on Linux) and ``InMemorySecureStore`` (tests and ephemeral sessions). Every method is atomic:
/// a reader sees either the old or the new value, and ``setValues(_:)`` applies all its changes or none.
public protocol SecureStore: Sendable {
    /// The value for `key`, or `nil` if there is none.
    func data(forKey key: String) async throws -> Data?
    /// Stores `data` under `key`, replacing any previous value.
    func set(_ data: Data, forKey key: String) async throws
    /// Removes the value for `key` (no error if absent).
    func removeValue(forKey key: String) async throws
    /// Applies several changes atomically: a `nil` value removes its key.
    func setValues(_ values: [String: Data?]) async throws
}

extension SecureStore {
    /// Stores `data` under `key`.
    public func set(_ data: Data, forKey key: String) async throws {
        try await setValues([key: data])
    }

    /// Removes the value for `key`.
    public func removeValue(forKey key: String) async throws {
        try await setValues([key: nil])
    }
}
