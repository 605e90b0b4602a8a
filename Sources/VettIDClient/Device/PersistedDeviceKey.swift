// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation

/// Reading a device key from its ``SecureStore`` entry, or creating one and storing it: the same steps for a
/// software key (its private scalar is stored) and a Secure Enclave key (its opaque `dataRepresentation` is stored),
/// with the key-specific parts passed in. Run it under a ``DeviceKeyLoader`` so that it runs once at a time.
enum PersistedDeviceKey {
    /// The stored key, or a new one stored under `storageKey` first.
    /// - Parameters:
    ///   - restore: Makes the key from its stored bytes; a failure is reported as
    ///     `DeviceKeyError.Code.corrupted` (the entry is never overwritten).
    ///   - create: Makes a new key and the bytes to store; its ``DeviceKeyError`` is reported as it is.
    static func loadOrCreate(
        store: any SecureStore,
        storageKey: String,
        restore: @Sendable (Data) throws -> DeviceKey,
        create: @Sendable () throws(DeviceKeyError) -> (stored: Data, key: DeviceKey)
    ) async throws(DeviceKeyError) -> DeviceKey {
        let stored: Data?
        do {
            stored = try await store.data(forKey: storageKey)
        } catch {
            throw DeviceKeyError(code: .storage, message: "The device key could not be read.", underlying: error)
        }
        if let stored {
            do {
                return try restore(stored)
            } catch {
                throw DeviceKeyError(
                    code: .corrupted, message: "The stored device key cannot be restored.", underlying: error)
            }
        }
        let created = try create()
        do {
            try await store.set(created.stored, forKey: storageKey)
        } catch {
            throw DeviceKeyError(code: .storage, message: "The new device key could not be stored.", underlying: error)
        }
        return created.key
    }
}
