// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCore

// The typed error of the vault wire format.

/// The family of ``VaultMessageError``.
public enum VaultMessageErrorDomain: ErrorDomain {}

/// Why a vault message or subject was refused. The code is sent back to the app in error responses.
public typealias VaultMessageError = DomainError<VaultMessageErrorDomain>

extension VaultMessageError.Code {
    /// Not JSON, not an object, or too deep.
    public static let malformedJSON = Self(rawValue: "malformed_message")
    /// A required member is missing or has the wrong type, or a member the type does not have is present.
    public static let missingField = Self(rawValue: "invalid_message")
    /// The `type` is not one this side understands.
    public static let unknownType = Self(rawValue: "unknown_message_type")
    /// The subject's type and the body's `type` differ.
    public static let typeMismatch = Self(rawValue: "type_mismatch")
    /// A subject or GUID is not valid.
    public static let invalidSubject = Self(rawValue: "invalid_subject")
    /// The execute request names a handler the vault does not have.
    public static let unknownHandler = Self(rawValue: "unknown_handler")
    /// The handler ran and failed.
    public static let handlerFailed = Self(rawValue: "handler_failed")
    /// The payload is larger than the vault accepts.
    public static let payloadTooLarge = Self(rawValue: "payload_too_large")
    /// The vault could not answer (its store failed, …).
    public static let unavailable = Self(rawValue: "vault_unavailable")
}
