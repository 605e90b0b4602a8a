// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCore

/// The family of ``PasskeyError``.
public enum PasskeyErrorDomain: ErrorDomain {}

/// A passkey ceremony did not produce a credential on this device: the member cancelled, there was no passkey
/// for the server, the platform cannot do passkeys, or the authenticator failed. ``AuthManager`` reports it as
/// ``APIError`` `passkey_failed` with this error as ``APIError/underlying``.
public typealias PasskeyError = DomainError<PasskeyErrorDomain>

extension PasskeyError.Code {
    /// The member dismissed the system's passkey sheet (`ASAuthorizationError.canceled`).
    public static let cancelled = Self(rawValue: "cancelled")
    /// No passkey on this device (or its synced keychain) matches the server's request.
    public static let noCredential = Self(rawValue: "no_credential")
    /// This platform, or this app's configuration (associated domains), cannot do passkeys.
    public static let notSupported = Self(rawValue: "not_supported")
    /// The server's options cannot be used (an unsupported algorithm, a missing challenge, …).
    public static let invalidOptions = Self(rawValue: "invalid_options")
    /// The authenticator failed (a storage or signing error, or an answer the SDK did not expect).
    public static let failed = Self(rawValue: "failed")
}
