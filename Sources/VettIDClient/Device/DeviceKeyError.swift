// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCore

/// The family of ``DeviceKeyError``.
public enum DeviceKeyErrorDomain: ErrorDomain {}

/// A failure of a ``DeviceKeyStore``.
public typealias DeviceKeyError = DomainError<DeviceKeyErrorDomain>

extension DeviceKeyError.Code {
    /// The store holding the key could not be read or written.
    public static let storage = Self(rawValue: "storage")
    /// The stored key material is not a valid P-256 key (it is not overwritten; call `reset()`).
    public static let corrupted = Self(rawValue: "corrupted")
    /// The platform cannot create this kind of key (for example, no Secure Enclave).
    public static let unavailable = Self(rawValue: "unavailable")
    /// Creating or using the key failed in the platform's key service.
    public static let keyOperationFailed = Self(rawValue: "key_operation_failed")
}
