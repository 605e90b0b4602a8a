#if canImport(CryptoKit) && canImport(Security)
    // Written for Apple platforms. Type-checked on Linux against Tests/AppleAPIShims (scripts/check-apple-only, in
    // the test command); never run on a device by this project: test it on one before relying on it (docs/sdk.md).

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
    public actor SecureEnclaveDeviceKeyStore: DeviceKeyStore {
        /// Whether this device has a Secure Enclave.
        public static var isAvailable: Bool { SecureEnclave.isAvailable }

        /// The store key under which the key's opaque blob is kept.
        public nonisolated let storageKey: String
        private let store: any SecureStore
        private var cached: DeviceKey?

        /// Creates a key store.
        /// - Parameters:
        ///   - store: Where the key blob persists (a `KeychainSecureStore`).
        ///   - storageKey: The store key (default `vettid.device-key.secure-enclave`).
        public init(store: any SecureStore, storageKey: String = "vettid.device-key.secure-enclave") {
            self.store = store
            self.storageKey = storageKey
        }

        /// Returns the key, restoring it from its blob or creating it in the Secure Enclave on first use.
        public func deviceKey() async throws(DeviceKeyError) -> DeviceKey {
            if let cached { return cached }
            guard Self.isAvailable else {
                throw DeviceKeyError(code: .unavailable, message: "This device has no Secure Enclave.")
            }
            let stored: Data?
            do {
                stored = try await store.data(forKey: storageKey)
            } catch {
                throw DeviceKeyError(code: .storage, message: "The device key could not be read.", underlying: error)
            }
            // The actor is re-entrant across the await above: another caller may have finished meanwhile.
            if let cached { return cached }
            let privateKey: SecureEnclave.P256.Signing.PrivateKey
            if let stored {
                do {
                    privateKey = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: stored)
                } catch {
                    throw DeviceKeyError(
                        code: .corrupted, message: "The stored Secure Enclave key cannot be restored.",
                        underlying: error)
                }
            } else {
                var accessError: Unmanaged<CFError>?
                guard
                    let access = SecAccessControlCreateWithFlags(
                        nil,
                        kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
                        .privateKeyUsage,
                        &accessError
                    )
                else {
                    throw DeviceKeyError(
                        code: .keyOperationFailed,
                        message: "The key's access control could not be created.",
                        underlying: accessError?.takeRetainedValue()
                    )
                }
                do {
                    privateKey = try SecureEnclave.P256.Signing.PrivateKey(accessControl: access)
                } catch {
                    throw DeviceKeyError(
                        code: .keyOperationFailed, message: "The Secure Enclave refused to create a key.",
                        underlying: error)
                }
                do {
                    try await store.set(privateKey.dataRepresentation, forKey: storageKey)
                } catch {
                    throw DeviceKeyError(
                        code: .storage, message: "The new device key could not be stored.", underlying: error)
                }
                if let cached { return cached }
            }
            let key = DeviceKey(signer: SecureEnclaveDPoPSigner(privateKey: privateKey))
            cached = key
            return key
        }

        /// Forgets the key blob (the Secure Enclave key becomes unusable once its blob is gone).
        public func reset() async throws(DeviceKeyError) {
            cached = nil
            do {
                try await store.removeValue(forKey: storageKey)
            } catch {
                throw DeviceKeyError(code: .storage, message: "The device key could not be removed.", underlying: error)
            }
        }
    }

    /// A ``DPoPSigner`` over a Secure Enclave P-256 key.
    struct SecureEnclaveDPoPSigner: DPoPSigner {
        let privateKey: SecureEnclave.P256.Signing.PrivateKey
        let publicJWK: P256PublicJWK

        init(privateKey: SecureEnclave.P256.Signing.PrivateKey) {
            self.privateKey = privateKey
            self.publicJWK = P256PublicJWK(publicKey: privateKey.publicKey)
        }

        /// ES256: CryptoKit hashes the message with SHA-256 and returns the raw 64-byte `r || s`.
        func sign(_ message: [UInt8]) async throws -> [UInt8] {
            Array(try privateKey.signature(for: Data(message)).rawRepresentation)
        }
    }
#endif
