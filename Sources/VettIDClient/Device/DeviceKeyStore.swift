// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// Where the device's P-256 identity key lives: created once, used to sign every DPoP proof, reset on demand.
///
/// Implementations: ``SoftwareDeviceKeyStore`` (a software key kept in a ``SecureStore``; Linux, macOS without
/// a Secure Enclave, tests) and `SecureEnclaveDeviceKeyStore` (Apple platforms with a Secure Enclave; the
/// private key never leaves the hardware). Tokens bound to the key (`cnf.jkt`) stop working after ``reset()``.
public protocol DeviceKeyStore: Sendable {
    /// Returns the device key, creating and persisting it on first use.
    ///
    /// Concurrent first calls create exactly one key.
    func deviceKey() async throws(DeviceKeyError) -> DeviceKey

    /// Deletes the key; the next ``deviceKey()`` creates a new one.
    func reset() async throws(DeviceKeyError)
}
