// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCore

/// A failure of a ``DeviceKeyStore``.
public struct DeviceKeyError: CodedError {
    /// What went wrong (an open set).
    public struct Code: ErrorCode {
        /// The code's name.
        public let rawValue: String
        /// Creates a code.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The store holding the key could not be read or written.
        public static let storage = Code(rawValue: "storage")
        /// The stored key material is not a valid P-256 key (it is not overwritten; call `reset()`).
        public static let corrupted = Code(rawValue: "corrupted")
        /// The platform cannot create this kind of key (for example, no Secure Enclave).
        public static let unavailable = Code(rawValue: "unavailable")
        /// Creating or using the key failed in the platform's key service.
        public static let keyOperationFailed = Code(rawValue: "key_operation_failed")
    }

    /// The error code.
    public var code: Code
    /// What happened; never contains key material.
    public var message: String
    /// The error that caused this one, if any.
    public var underlying: (any Error)?

    /// Creates an error.
    public init(code: Code, message: String, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.underlying = underlying
    }
}
