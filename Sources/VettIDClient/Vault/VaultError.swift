// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import VettIDCore

// Errors of the vault flows: everything the vault API throws is an `APIError` (its client-side codes are in
// APIErrorCode+Client.swift).

extension APIError {
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
