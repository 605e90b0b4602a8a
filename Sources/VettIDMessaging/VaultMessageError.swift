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

extension VaultMessageError.Code {
    /// A handler's request is not the payload it takes (a member missing or of the wrong type).
    public static let invalidPayload = Self(rawValue: "invalid_payload")
    /// The handler touches the member's data and runs only for a request sealed in a session (§7.3).
    public static let sealedSessionRequired = Self(rawValue: "sealed_session_required")
    /// No secret has this name.
    public static let secretNotFound = Self(rawValue: "secret_not_found")
    /// The secret name is empty, too long, or has control characters.
    public static let invalidSecretName = Self(rawValue: "invalid_secret_name")
    /// The secret value is larger than the vault keeps.
    public static let secretTooLarge = Self(rawValue: "secret_too_large")
    /// The member keeps as many secrets, or as many bytes, as the vault allows.
    public static let secretLimitReached = Self(rawValue: "secret_limit_reached")
    /// The request's `expected_version` is not the stored one (another device changed it meanwhile).
    public static let versionConflict = Self(rawValue: "version_conflict")
    /// Reading a secret value needs a vault authentication of this device within the vault's window.
    public static let vaultAuthenticationRequired = Self(rawValue: "vault_authentication_required")
    /// A profile field name or value is not allowed, or there are too many fields.
    public static let invalidProfile = Self(rawValue: "invalid_profile")
}
