// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

#if canImport(UIKit) && canImport(AuthenticationServices)
    import AuthenticationServices
    import UIKit
    import VettIDClient

    /// The example app's passkeys: Apple's platform authenticator (iCloud Keychain), its sheet presented from the
    /// key window. Signing in with a passkey needs the associated domain `webcredentials:<server host>` in the
    /// entitlements and the server's `apple-app-site-association` listing this app (docs/ios.md, "Passkeys").
    enum ExamplePasskeys {
        /// The authenticator the sign-in screen uses.
        @MainActor
        static func authenticator() -> PlatformPasskeyAuthenticator {
            PlatformPasskeyAuthenticator { keyWindow() }
        }

        /// The key window of a connected window scene (the app has one scene); a new window if none is key yet,
        /// which the system then uses only as a hint.
        @MainActor
        static func keyWindow() -> ASPresentationAnchor {
            let scenes = UIApplication.shared.connectedScenes.compactMap { $0 as? UIWindowScene }
            return scenes.lazy.compactMap(\.keyWindow).first ?? ASPresentationAnchor()
        }
    }
#endif
