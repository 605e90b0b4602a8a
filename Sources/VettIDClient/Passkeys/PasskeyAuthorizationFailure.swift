// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

/// What a failed `ASAuthorizationController` passkey request means for the SDK: the ``PasskeyError`` that
/// `PlatformPasskeyAuthenticator` throws for the `ASAuthorizationError.Code` its delegate received.
///
/// Plain Swift so that it is tested on Linux; the Apple-only file passes the code's raw value
/// (`ASAuthorizationError.Code` is an `NS_ERROR_ENUM` of `NSInteger`). The raw values are Apple's:
/// 1000 `unknown`, 1001 `canceled`, 1002 `invalidResponse`, 1003 `notHandled`, 1004 `failed`, 1005
/// `notInteractive`, 1006 `matchedExcludedCredential`, 1007 `credentialImport`, 1008 `credentialExport`, 1009
/// `preferSignInWithApple`, 1010 `deviceNotConfiguredForPasskeyCreation`.
///
/// Apple's answer on the developer forums (thread 756425): for passkey requests only `canceled`, `failed` and
/// `matchedExcludedCredential` should occur, and `failed` "generally means some part of the request was invalid,
/// such as invalid parameters being passed or an issue with Associated Domains". The other codes belong to other
/// request types; they are mapped anyway, to what they would mean here.
enum PasskeyAuthorizationFailure {
    /// `ASAuthorizationError.Code` raw values.
    enum AuthorizationErrorCode {
        static let unknown = 1000
        static let canceled = 1001
        static let invalidResponse = 1002
        static let notHandled = 1003
        static let failed = 1004
        static let notInteractive = 1005
        static let matchedExcludedCredential = 1006
        static let deviceNotConfiguredForPasskeyCreation = 1010
    }

    /// The SDK error for a failed authorization.
    /// - Parameters:
    ///   - code: The `ASAuthorizationError.Code` raw value, or `nil` when the error is not an
    ///     `ASAuthorizationError`.
    ///   - description: The error's description, kept in the message (Apple's "more descriptive reason").
    ///   - underlying: The error itself, kept as the ``PasskeyError``'s underlying error.
    static func error(authorizationErrorCode code: Int?, description: String, underlying: (any Error)? = nil)
        -> PasskeyError
    {
        guard let code else {
            return PasskeyError(.failed, "the passkey request failed: \(description)", underlying: underlying)
        }
        let message: String
        switch code {
        case AuthorizationErrorCode.canceled:
            message = "the passkey request was cancelled"
        case AuthorizationErrorCode.failed:
            message = "the passkey request failed (check the app's associated domains): \(description)"
        case AuthorizationErrorCode.notHandled:
            message = "no passkey provider handled the request: \(description)"
        case AuthorizationErrorCode.notInteractive:
            message = "no passkey was available without asking: \(description)"
        case AuthorizationErrorCode.matchedExcludedCredential:
            message = "this device already holds a passkey of this account"
        case AuthorizationErrorCode.deviceNotConfiguredForPasskeyCreation:
            message = "this device is not set up for passkeys (a passcode and iCloud Keychain are needed)"
        default:
            message = "the passkey request failed (code \(code)): \(description)"
        }
        return PasskeyError(self.code(forAuthorizationErrorCode: code), message, underlying: underlying)
    }

    /// The `PasskeyError.Code` for an `ASAuthorizationError.Code` raw value.
    static func code(forAuthorizationErrorCode code: Int) -> PasskeyError.Code {
        switch code {
        // The member dismissed the sheet: nothing to report.
        case AuthorizationErrorCode.canceled: .cancelled
        // Asked not to show UI and nothing was at hand: there is no passkey to use.
        case AuthorizationErrorCode.notInteractive: .noCredential
        // Nothing on this device can answer a passkey request.
        case AuthorizationErrorCode.notHandled, AuthorizationErrorCode.deviceNotConfiguredForPasskeyCreation:
            .notSupported
        // `failed` (bad options, associated domains), `invalidResponse`, `unknown`, `matchedExcludedCredential`, and
        // codes added after this was written.
        default: .failed
        }
    }
}
