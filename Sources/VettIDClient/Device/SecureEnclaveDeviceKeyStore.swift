// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

#if canImport(CryptoKit) && canImport(Security)
    // Written for Apple platforms. Type-checked on Linux against Tests/AppleAPIShims (scripts/check-apple-only, in
    // the test command); never run on a device by this project: test it on one before relying on it (docs/ios.md).

    import CryptoKit
    import Foundation
    import Security
    import VettIDCrypto

    /// A ``DeviceKeyStore`` whose P-256 key is created inside the Secure Enclave: the private key never leaves the
    /// hardware. The store keeps only the key's `dataRepresentation`, an opaque blob that only this device's
    /// Secure Enclave can use.
    ///
    /// The key is created with `kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly` and `.privateKeyUsage`, so it is
    /// not backed up, not migrated to another device, and usable in the background after the first unlock. Check
    /// ``isAvailable`` first and fall back to ``SoftwareDeviceKeyStore`` (simulators, Macs without a T2/Apple silicon).
    ///
    /// Loading and creating run once at a time (`DeviceKeyLoader`, as for ``SoftwareDeviceKeyStore``): concurrent
    /// first calls create exactly one key, and the key they get is the one stored. The steps themselves are
    /// `PersistedDeviceKey`'s, tested on Linux; this file only calls CryptoKit and Security.
    public actor SecureEnclaveDeviceKeyStore: DeviceKeyStore {
        /// Whether this device has a Secure Enclave.
        public static var isAvailable: Bool { SecureEnclave.isAvailable }

        /// The store key under which the key's opaque blob is kept.
        public nonisolated let storageKey: String
        private let store: any SecureStore
        private let loader: DeviceKeyLoader

        /// Creates a key store.
        /// - Parameters:
        ///   - store: Where the key blob persists (a `KeychainSecureStore`).
        ///   - storageKey: The store key (default `vettid.device-key.secure-enclave`).
        public init(store: any SecureStore, storageKey: String = "vettid.device-key.secure-enclave") {
            self.store = store
            self.storageKey = storageKey
            self.loader = DeviceKeyLoader { () async throws(DeviceKeyError) -> DeviceKey in
                guard SecureEnclave.isAvailable else {
                    throw DeviceKeyError(code: .unavailable, message: "This device has no Secure Enclave.")
                }
                return try await PersistedDeviceKey.loadOrCreate(store: store, storageKey: storageKey) { stored in
                    DeviceKey(signer: try SecureEnclaveDPoPSigner(keyBlob: stored))
                } create: { () throws(DeviceKeyError) -> (stored: Data, key: DeviceKey) in
                    let signer = try SecureEnclaveDPoPSigner.create()
                    return (signer.keyBlob, DeviceKey(signer: signer))
                }
            }
        }

        /// Returns the key, restoring it from its blob or creating it in the Secure Enclave on first use (single
        /// flight).
        public func deviceKey() async throws(DeviceKeyError) -> DeviceKey {
            try await loader.key()
        }

        /// Forgets the key blob (the Secure Enclave key becomes unusable once its blob is gone).
        public func reset() async throws(DeviceKeyError) {
            await loader.forget()
            do {
                try await store.removeValue(forKey: storageKey)
            } catch {
                throw DeviceKeyError(code: .storage, message: "The device key could not be removed.", underlying: error)
            }
        }
    }

    /// A ``DPoPSigner`` over a Secure Enclave P-256 key.
    ///
    /// It keeps the key's `dataRepresentation` (an opaque blob only this device's Secure Enclave can use), never the
    /// `SecureEnclave.P256.Signing.PrivateKey` itself: Apple's documentation does not list a `Sendable` conformance
    /// for that type, and a signer is shared across tasks. Each signature restores the key from the blob inside the
    /// call, so the key value never crosses an isolation boundary.
    struct SecureEnclaveDPoPSigner: DPoPSigner {
        /// The key's `dataRepresentation`.
        let keyBlob: Data
        let publicJWK: P256PublicJWK

        /// A signer over the key in `keyBlob`.
        /// - Throws: CryptoKit's error when the blob is not a key of this device's Secure Enclave.
        init(keyBlob: Data) throws {
            let key = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: keyBlob)
            self.keyBlob = keyBlob
            self.publicJWK = P256PublicJWK(publicKey: key.publicKey)
        }

        /// Creates a key in the Secure Enclave: this device only, usable after the first unlock, for signing.
        static func create() throws(DeviceKeyError) -> SecureEnclaveDPoPSigner {
            var accessError: Unmanaged<CFError>?
            guard
                let access = SecAccessControlCreateWithFlags(
                    nil, kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly, .privateKeyUsage, &accessError)
            else {
                throw DeviceKeyError(
                    code: .keyOperationFailed, message: "The key's access control could not be created.",
                    underlying: accessError?.takeRetainedValue())
            }
            do {
                let key = try SecureEnclave.P256.Signing.PrivateKey(accessControl: access)
                return try SecureEnclaveDPoPSigner(keyBlob: key.dataRepresentation)
            } catch {
                throw DeviceKeyError(
                    code: .keyOperationFailed, message: "The Secure Enclave refused to create a key.", underlying: error
                )
            }
        }

        /// ES256: CryptoKit hashes the message with SHA-256 and returns the raw 64-byte `r || s`.
        func sign(_ message: [UInt8]) async throws -> [UInt8] {
            let key = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: keyBlob)
            return Array(try key.signature(for: Data(message)).rawRepresentation)
        }
    }
#endif
