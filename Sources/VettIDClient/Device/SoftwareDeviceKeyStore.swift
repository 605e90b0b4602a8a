// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Crypto
import Foundation
import VettIDCrypto

/// A ``DeviceKeyStore`` holding a software P-256 key in a ``SecureStore`` (Linux, macOS without a Secure
/// Enclave, simulators, tests).
///
/// The 32-byte private scalar is stored under ``storageKey``; the key is loaded once and kept in memory
/// (`DeviceKeyLoader`: concurrent first calls create one key). A stored value that is not a valid key is reported
/// as `DeviceKeyError.Code.corrupted` and never silently replaced (that would unbind every token); call
/// ``reset()`` to start over. Keep the store protected: whoever reads it can sign as this device.
public actor SoftwareDeviceKeyStore: DeviceKeyStore {
    /// The store key under which the private scalar is kept.
    public nonisolated let storageKey: String
    private let store: any SecureStore
    private let loader: DeviceKeyLoader

    /// Creates a key store.
    /// - Parameters:
    ///   - store: Where the private key persists.
    ///   - storageKey: The store key (default `vettid.device-key.p256`).
    public init(store: any SecureStore, storageKey: String = "vettid.device-key.p256") {
        self.store = store
        self.storageKey = storageKey
        self.loader = DeviceKeyLoader { () async throws(DeviceKeyError) -> DeviceKey in
            try await PersistedDeviceKey.loadOrCreate(store: store, storageKey: storageKey) { stored in
                DeviceKey(signer: try SoftwareDPoPSigner(rawRepresentation: stored))
            } create: {
                let signer = SoftwareDPoPSigner(privateKey: P256.Signing.PrivateKey())
                return (signer.rawRepresentation, DeviceKey(signer: signer))
            }
        }
    }

    /// Returns the key, loading it from the store or creating it on first use (single flight).
    public func deviceKey() async throws(DeviceKeyError) -> DeviceKey {
        try await loader.key()
    }

    /// Removes the key from the store and from memory.
    public func reset() async throws(DeviceKeyError) {
        await loader.forget()
        do {
            try await store.removeValue(forKey: storageKey)
        } catch {
            throw DeviceKeyError(code: .storage, message: "The device key could not be removed.", underlying: error)
        }
    }
}
