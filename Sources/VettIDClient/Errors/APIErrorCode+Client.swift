// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

public import VettIDCore

// The codes the SDK raises itself; the server never sends them, so they are not in openapi.yaml's error table.
extension APIErrorCode {
    /// `network_error`: the request did not reach the server or no response arrived.
    public static let networkError = APIErrorCode(rawValue: "network_error")
    /// `invalid_response`: the server answered with something the SDK could not understand.
    public static let invalidResponse = APIErrorCode(rawValue: "invalid_response")
    /// `http_error`: a non-2xx answer without a parsable error body.
    public static let httpError = APIErrorCode(rawValue: "http_error")
    /// `not_authenticated`: the operation needs a signed-in session and there is none.
    public static let notAuthenticated = APIErrorCode(rawValue: "not_authenticated")
    /// `sign_in_required`: the member session has ended (signed out, revoked on the server, or its refresh token
    /// expired); the member signs in again. Background work stops on it.
    public static let signInRequired = APIErrorCode(rawValue: "sign_in_required")
    /// `reauthentication_required`: the vault session is missing, expired or was refused (401 `invalid_token`) and no
    /// ``VaultReauthenticator`` is configured (or re-authenticating once did not help). Authenticate with the vault
    /// password again.
    public static let reauthenticationRequired = APIErrorCode(rawValue: "reauthentication_required")
    /// `lat_mismatch`: the server's LAT is not the one the device stored (the anti-phishing check); no password was
    /// sent.
    public static let latMismatch = APIErrorCode(rawValue: "lat_mismatch")
    /// `no_transaction_key`: the stored credential package holds no unused transaction key with the id the server
    /// asked for (or none at all); nothing was sent. Sync the vault or enroll again.
    public static let noTransactionKey = APIErrorCode(rawValue: "no_transaction_key")
    /// `untrusted_origin`: an invitation names another API origin than the one the service talks to.
    public static let untrustedOrigin = APIErrorCode(rawValue: "untrusted_origin")
    /// `attestation_failed`: the device attester could not attest or assert (see ``APIError/underlying``, a
    /// ``DeviceAttestationError``).
    public static let attestationFailed = APIErrorCode(rawValue: "attestation_failed")
    /// `device_key_failed`: the device key could not be read or created (underlying ``DeviceKeyError``).
    public static let deviceKeyFailed = APIErrorCode(rawValue: "device_key_failed")
    /// `storage_failed`: the credential package could not be read or written in the ``SecureStore``.
    public static let storageFailed = APIErrorCode(rawValue: "storage_failed")
    /// `encryption_failed`: the password could not be sealed to the transaction key.
    public static let encryptionFailed = APIErrorCode(rawValue: "encryption_failed")
    /// `passkey_failed`: the passkey authenticator produced no credential (see ``APIError/underlying``, a
    /// ``PasskeyError``: cancelled, no credential for this server, not supported, failed); nothing was sent.
    public static let passkeyFailed = APIErrorCode(rawValue: "passkey_failed")
    /// `account_exists`: answered by servers before 2026-11-25 to a repeated NATS account creation.
    public static let accountExists = APIErrorCode(rawValue: "account_exists")

    /// The SDK's own codes, which never come from the server.
    public static let clientSide: [APIErrorCode] = [
        .networkError, .invalidResponse, .httpError, .notAuthenticated, .signInRequired, .reauthenticationRequired,
        .latMismatch, .noTransactionKey, .untrustedOrigin, .attestationFailed, .deviceKeyFailed, .storageFailed,
        .encryptionFailed, .accountExists, .passkeyFailed,
    ]

    /// Renamed to follow the generated spelling of acronyms.
    @available(*, deprecated, renamed: "attestationWrongAppID")
    public static var attestationWrongAppId: APIErrorCode { .attestationWrongAppID }
    /// Renamed to follow the generated spelling of acronyms.
    @available(*, deprecated, renamed: "attestationWrongKeyID")
    public static var attestationWrongKeyId: APIErrorCode { .attestationWrongKeyID }
}

// `catch APIError.networkError` reads like the wire codes (their mirrors are generated: APIError+Codes.swift).
extension APIError {
    /// Matches `network_error` in `catch` patterns.
    public static var networkError: Code { .networkError }
    /// Matches `invalid_response` in `catch` patterns.
    public static var invalidResponse: Code { .invalidResponse }
    /// Matches `http_error` in `catch` patterns.
    public static var httpError: Code { .httpError }
    /// Matches `not_authenticated` in `catch` patterns.
    public static var notAuthenticated: Code { .notAuthenticated }
    /// Matches `sign_in_required` in `catch` patterns.
    public static var signInRequired: Code { .signInRequired }
    /// Matches `reauthentication_required` in `catch` patterns.
    public static var reauthenticationRequired: Code { .reauthenticationRequired }
    /// Matches `lat_mismatch` in `catch` patterns.
    public static var latMismatch: Code { .latMismatch }
    /// Matches `no_transaction_key` in `catch` patterns.
    public static var noTransactionKey: Code { .noTransactionKey }
    /// Matches `untrusted_origin` in `catch` patterns.
    public static var untrustedOrigin: Code { .untrustedOrigin }
    /// Matches `attestation_failed` in `catch` patterns.
    public static var attestationFailed: Code { .attestationFailed }
    /// Matches `device_key_failed` in `catch` patterns.
    public static var deviceKeyFailed: Code { .deviceKeyFailed }
    /// Matches `storage_failed` in `catch` patterns.
    public static var storageFailed: Code { .storageFailed }
    /// Matches `encryption_failed` in `catch` patterns.
    public static var encryptionFailed: Code { .encryptionFailed }
    /// Matches `account_exists` in `catch` patterns.
    public static var accountExists: Code { .accountExists }
}
