// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

import Foundation

/// Maps errors from App Attest to `DeviceAttestationError.Code` by `DCError` domain and code.
///
/// Apple's `DCError.Code`: 0 `unknownSystemFailure`, 1 `featureUnsupported`, 2 `invalidInput`, **3 `invalidKey`**,
/// 4 `serverUnavailable`. Only 3 means the key is gone; 0 and 2 are not key problems (reading them as such was a
/// gate-ios bug).
public enum AppAttestErrorClassifier {
    /// `DCErrorDomain`.
    public static let deviceCheckErrorDomain = "com.apple.devicecheck.error"

    /// The SDK code for an error thrown by `DCAppAttestService` (anything outside the `DCError` domain is a
    /// system failure).
    public static func code(for error: any Error) -> DeviceAttestationError.Code {
        let nsError = error as NSError
        guard nsError.domain == deviceCheckErrorDomain else { return .systemFailure }
        return code(forDCErrorCode: nsError.code)
    }

    /// The SDK code for a raw `DCError.Code` value.
    public static func code(forDCErrorCode code: Int) -> DeviceAttestationError.Code {
        switch code {
        case 1: return .unsupported
        case 2: return .invalidInput
        case 3: return .invalidKey
        case 4: return .serverUnavailable
        default: return .systemFailure
        }
    }
}
