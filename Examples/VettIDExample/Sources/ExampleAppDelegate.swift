// SPDX-FileCopyrightText: 2026 The VettID Authors
// SPDX-License-Identifier: Apache-2.0

#if canImport(UIKit)
    import Foundation
    import UIKit

    /// The example app's UIKit delegate (through `UIApplicationDelegateAdaptor`): registers for remote
    /// notifications at every launch, as Apple asks, and hands the device token to the model, which sends it to the
    /// server when it has to (`PushTokenRegistrar`).
    final class ExampleAppDelegate: NSObject, UIApplicationDelegate {
        /// The model the token goes to; the app's scene sets it (SwiftUI makes this delegate, not the app).
        var model: ExampleAppModel? {
            didSet { handOverToken() }
        }
        /// A token that arrived before the model was set.
        private var pendingToken: Data?

        func application(
            _ application: UIApplication,
            didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
        ) -> Bool {
            application.registerForRemoteNotifications()
            return true
        }

        func application(
            _ application: UIApplication, didRegisterForRemoteNotificationsWithDeviceToken deviceToken: Data
        ) {
            pendingToken = deviceToken
            handOverToken()
        }

        func application(
            _ application: UIApplication, didFailToRegisterForRemoteNotificationsWithError error: any Error
        ) {
            // No token (no aps-environment entitlement, the simulator without APNs, no network): the push stays off.
            model?.pushRegistrationFailed(error)
        }

        private func handOverToken() {
            guard let model, let token = pendingToken else { return }
            pendingToken = nil
            Task { await model.pushTokenReceived(token) }
        }
    }
#endif
