import Crypto
import Foundation
import VettIDCrypto

/// A ``DeviceKeyStore`` holding a software P-256 key in a ``SecureStore`` (Linux, macOS without a Secure
/// Enclave, simulators, tests).
///
/// The 32-byte private scalar is stored under ``storageKey``; the key is loaded once and kept in memory.
/// A stored value that is not a valid key is reported as ``DeviceKeyError/Code/corrupted`` and never silently
/// replaced (that would unbind every token); call ``reset()`` to start over. Keep the store protected: whoever
/// reads it can sign as this device.
public actor SoftwareDeviceKeyStore: DeviceKeyStore {
    /// The store key under which the private scalar is kept.
    public nonisolated let storageKey: String
    private let store: any SecureStore
    private var cached: DeviceKey?
    private var loading: Task<DeviceKey, any Error>?

    /// Creates a key store.
    /// - Parameters:
    ///   - store: Where the private key persists.
    ///   - storageKey: The store key (default `vettid.device-key.p256`).
    public init(store: any SecureStore, storageKey: String = "vettid.device-key.p256") {
        self.store = store
        self.storageKey = storageKey
    }

    /// Returns the key, loading it from the store or creating it on first use (single flight).
    public func deviceKey() async throws(DeviceKeyError) -> DeviceKey {
        if let cached { return cached }
        let task: Task<DeviceKey, any Error>
        if let loading {
            task = loading
        } else {
            let store = self.store
            let storageKey = self.storageKey
            task = Task { try await Self.loadOrCreate(store: store, storageKey: storageKey) }
            loading = task
        }
        do {
            let key = try await task.value
            // Cache only if no reset happened meanwhile (a reset clears `loading`).
            if loading == task {
                cached = key
                loading = nil
            }
            return key
        } catch {
            if loading == task { loading = nil }
            throw (error as? DeviceKeyError)
                ?? DeviceKeyError(code: .storage, message: "The device key could not be loaded.", underlying: error)
        }
    }

    /// Removes the key from the store and from memory.
    public func reset() async throws(DeviceKeyError) {
        cached = nil
        loading = nil
        do {
            try await store.removeValue(forKey: storageKey)
        } catch {
            throw DeviceKeyError(code: .storage, message: "The device key could not be removed.", underlying: error)
        }
    }

    private static func loadOrCreate(store: any SecureStore, storageKey: String) async throws -> DeviceKey {
        let stored: Data?
        do {
            stored = try await store.data(forKey: storageKey)
        } catch {
            throw DeviceKeyError(code: .storage, message: "The device key could not be read.", underlying: error)
        }
        if let stored {
            do {
                return DeviceKey(signer: try SoftwareDPoPSigner(rawRepresentation: stored))
            } catch {
                throw DeviceKeyError(code: .corrupted, message: "The stored device key is not a P-256 key.")
            }
        }
        let signer = SoftwareDPoPSigner(privateKey: P256.Signing.PrivateKey())
        do {
            try await store.set(signer.rawRepresentation, forKey: storageKey)
        } catch {
            throw DeviceKeyError(code: .storage, message: "The new device key could not be stored.", underlying: error)
        }
        return DeviceKey(signer: signer)
    }
}
