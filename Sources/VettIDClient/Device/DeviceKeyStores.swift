// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// Makes the ``DeviceKeyStore`` of a ``PlatformCapabilities/DeviceKeyKind``.
public enum DeviceKeyStores {
    /// A key store of `kind` over `store`. A Secure Enclave key asked for where there is none (only possible
    /// with a hand-made ``PlatformCapabilities``) falls back to a software key.
    public static func make(_ kind: PlatformCapabilities.DeviceKeyKind, store: any SecureStore) -> any DeviceKeyStore {
        switch kind {
        case .secureEnclave:
            #if canImport(CryptoKit) && canImport(Security)
                return SecureEnclaveDeviceKeyStore(store: store)
            #else
                return SoftwareDeviceKeyStore(store: store)
            #endif
        case .software:
            return SoftwareDeviceKeyStore(store: store)
        }
    }
}
