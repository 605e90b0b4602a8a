// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// How a member session is tied to the device.
///
/// The default, ``platformDeviceKey``, binds it to the device key with DPoP (RFC 9449): login, registration's
/// login and every refresh carry a proof, the server issues `token_type: DPoP` tokens whose `cnf.jkt` names the
/// key, and a stolen token is useless without the key. ``bearer`` is there for a server that cannot bind
/// tokens, and only by explicit choice.
public enum SessionBinding: Sendable {
    /// DPoP with the platform's device key kept in the session's store (Secure Enclave on a device that has
    /// one, a software key otherwise; see ``PlatformCapabilities/deviceKeyKind``).
    case platformDeviceKey
    /// DPoP with this device key (share it with the ``VaultService`` and ``GateClient`` of the same device).
    case deviceKey(any DeviceKeyStore)
    /// Plain bearer tokens: whoever holds the access or refresh token can use it.
    case bearer

    /// The device key this binding signs with, or `nil` for ``bearer``.
    /// - Parameters:
    ///   - store: Where a platform key is kept.
    ///   - platform: The platform deciding the key's kind.
    public func deviceKeyStore(store: any SecureStore, platform: PlatformCapabilities = .current)
        -> (any DeviceKeyStore)?
    {
        switch self {
        case .platformDeviceKey: DeviceKeyStores.make(platform.deviceKeyKind, store: store)
        case .deviceKey(let keyStore): keyStore
        case .bearer: nil
        }
    }
}
