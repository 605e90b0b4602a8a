// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

// Client-side error codes of the vault flows; everything the vault API throws is an `APIError`.

extension APIError.Code {
    /// `no_transaction_key`: Client side: the stored credential package holds no unused transaction key with the
    /// id the server asked for (or none at all); nothing was sent. Sync the vault or enroll again.
    public static let noTransactionKey = APIError.Code(rawValue: "no_transaction_key")
    /// `untrusted_origin`: Client side: an invitation names another API origin than the one the service talks to.
    public static let untrustedOrigin = APIError.Code(rawValue: "untrusted_origin")
    /// `attestation_failed`: Client side: the device attester could not attest or assert (see ``APIError/underlying``,
    /// a ``DeviceAttestationError``).
    public static let attestationFailed = APIError.Code(rawValue: "attestation_failed")
    /// `device_key_failed`: Client side: the device key could not be read or created (underlying ``DeviceKeyError``).
    public static let deviceKeyFailed = APIError.Code(rawValue: "device_key_failed")
    /// `storage_failed`: Client side: the credential package could not be read or written in the ``SecureStore``.
    public static let storageFailed = APIError.Code(rawValue: "storage_failed")
    /// `encryption_failed`: Client side: the password could not be sealed to the transaction key.
    public static let encryptionFailed = APIError.Code(rawValue: "encryption_failed")
}

// Mirrors so that `catch APIError.noTransactionKey` reads like the other codes.
extension APIError {
    /// Matches ``Code/noTransactionKey`` in `catch` patterns.
    public static var noTransactionKey: Code { .noTransactionKey }
    /// Matches ``Code/untrustedOrigin`` in `catch` patterns.
    public static var untrustedOrigin: Code { .untrustedOrigin }
    /// Matches ``Code/attestationFailed`` in `catch` patterns.
    public static var attestationFailed: Code { .attestationFailed }
    /// Matches ``Code/deviceKeyFailed`` in `catch` patterns.
    public static var deviceKeyFailed: Code { .deviceKeyFailed }
    /// Matches ``Code/storageFailed`` in `catch` patterns.
    public static var storageFailed: Code { .storageFailed }
    /// Matches ``Code/encryptionFailed`` in `catch` patterns.
    public static var encryptionFailed: Code { .encryptionFailed }

    /// An ``APIError`` for a device-key failure.
    static func deviceKey(_ error: DeviceKeyError) -> APIError {
        APIError(
            code: .deviceKeyFailed, description: "The device key is not available: \(error.message)", underlying: error)
    }

    /// An ``APIError`` for an attester failure.
    static func attestation(_ error: DeviceAttestationError) -> APIError {
        APIError(
            code: .attestationFailed, description: "The device could not prove the app: \(error.message)",
            underlying: error)
    }
}
